import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

export const ENCRYPTION_KEY_MIN_LENGTH = 32;

/** Where the key that seals stored API keys and webhook secrets came from. */
export interface EncryptionKeySettings {
  /** The key material every stored-secret cipher derives its AES key from (HKDF). */
  key: string;
  source: 'env' | 'file' | 'generated-file';
  /** The key file read or written; null when the key came from ENCRYPTION_KEY. */
  file: string | null;
  /** True when this start wrote a new key file (development only). */
  created: boolean;
}

export class EncryptionKeyError extends Error {
  override name = 'EncryptionKeyError';
}

/** The development default: beside DATA_DIR, never in it (`./data` → `./data.encryption-key`). */
export function defaultEncryptionKeyFile(dataDir: string): string {
  return `${resolve(dataDir)}.encryption-key`;
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Symlinks resolved where the path exists, so a link into DATA_DIR counts as inside it. */
function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function readKeyFile(file: string, variable: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new EncryptionKeyError(`${variable}: cannot read ${file} (${(error as Error).message})`);
  }
  if (text.length < ENCRYPTION_KEY_MIN_LENGTH)
    throw new EncryptionKeyError(`${variable}: ${file} must hold at least ${ENCRYPTION_KEY_MIN_LENGTH} characters`);
  return text;
}

function writeNewKeyFile(file: string): string {
  const key = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (error) {
    throw new EncryptionKeyError(`ENCRYPTION_KEY_FILE: cannot write ${file} (${(error as Error).message})`);
  }
  return key;
}

/**
 * The encryption key for stored secrets, kept out of DATA_DIR so a copy of the data directory (the
 * database, secrets.json) decrypts nothing: ENCRYPTION_KEY, or the file ENCRYPTION_KEY_FILE names
 * (refused inside DATA_DIR). In development a missing key is generated once beside DATA_DIR; in
 * production it must be given, since a key made silently on a fresh volume would orphan every
 * sealed secret.
 */
export function loadEncryptionKey(options: {
  key: string | undefined;
  file: string | undefined;
  dataDir: string;
  production: boolean;
}): EncryptionKeySettings {
  const { key, file, dataDir, production } = options;
  if (key && file) throw new EncryptionKeyError('ENCRYPTION_KEY and ENCRYPTION_KEY_FILE: set one of them, not both');
  if (key) return { key, source: 'env', file: null, created: false };
  const realDataDir = realOrResolved(dataDir);
  if (file) {
    if (isInside(realDataDir, realOrResolved(file))) {
      throw new EncryptionKeyError(
        `ENCRYPTION_KEY_FILE: ${file} is inside DATA_DIR; keep the key elsewhere, so a copy of DATA_DIR cannot decrypt the stored keys`,
      );
    }
    if (existsSync(file)) return { key: readKeyFile(file, 'ENCRYPTION_KEY_FILE'), source: 'file', file, created: false };
    if (production)
      throw new EncryptionKeyError(
        `ENCRYPTION_KEY_FILE: ${file} does not exist (with NODE_ENV=production the key is never generated; restore it or create it with: openssl rand -base64 32 > ${file})`,
      );
    return { key: writeNewKeyFile(file), source: 'file', file, created: true };
  }
  if (production) {
    throw new EncryptionKeyError(
      'ENCRYPTION_KEY or ENCRYPTION_KEY_FILE: one is required with NODE_ENV=production (it encrypts the stored API keys and webhook secrets; keep it outside DATA_DIR and back it up apart from it)',
    );
  }
  const generated = defaultEncryptionKeyFile(dataDir);
  if (existsSync(generated))
    return { key: readKeyFile(generated, 'ENCRYPTION_KEY_FILE'), source: 'generated-file', file: generated, created: false };
  return { key: writeNewKeyFile(generated), source: 'generated-file', file: generated, created: true };
}

/** The start-up line about the key; never the key itself. */
export function encryptionKeyNotice(settings: EncryptionKeySettings): { level: 'warn' | 'info'; message: string } | null {
  if (settings.source === 'env') return null;
  if (settings.created) {
    return {
      level: 'warn',
      message: `No encryption key was configured: generated one in ${settings.file}. It encrypts the stored API keys and webhook secrets; back it up apart from DATA_DIR (without it they cannot be read), and set ENCRYPTION_KEY or ENCRYPTION_KEY_FILE in production.`,
    };
  }
  if (settings.source === 'generated-file') {
    return {
      level: 'info',
      message: `Encryption key read from ${settings.file} (the development default; set ENCRYPTION_KEY or ENCRYPTION_KEY_FILE in production).`,
    };
  }
  return null;
}
