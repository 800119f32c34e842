import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, JWT_SECRET_MIN_LENGTH } from './config-schema.js';

const secretsFileSchema = z.object({ jwtSecret: z.string().min(JWT_SECRET_MIN_LENGTH) });

/**
 * DATA_DIR/secrets.json, used when JWT_SECRET is unset: reads the generated secret, or writes a new
 * one readable only by this user, so restarts keep sessions.
 */
export function loadOrCreateJwtSecret(secretsFile: string): string {
  if (existsSync(secretsFile)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(secretsFile, 'utf8'));
    } catch {
      throw new ConfigError(`${secretsFile} is not valid JSON; fix it, delete it, or set JWT_SECRET`);
    }
    const secrets = secretsFileSchema.safeParse(parsed);
    if (!secrets.success) throw new ConfigError(`${secretsFile} has no usable jwtSecret; delete it or set JWT_SECRET`);
    return secrets.data.jwtSecret;
  }
  const jwtSecret = randomBytes(48).toString('base64url');
  writeFileSync(secretsFile, `${JSON.stringify({ jwtSecret }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(secretsFile, 0o600);
  return jwtSecret;
}
