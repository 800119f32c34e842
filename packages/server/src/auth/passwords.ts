import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

// The package exports Algorithm as an ambient const enum, which isolatedModules cannot read at runtime.
const ARGON2ID = 2 as Algorithm.Argon2id;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a random password, verified against when the e-mail is unknown so a failed sign-in
 * takes about as long whether or not the account exists.
 */
export function createDummyPasswordHash(): Promise<string> {
  return hashPassword(randomBytes(24).toString('base64url'));
}
