import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'rsk_';
/** Characters of the key kept in clear for recognising it in lists. */
export const API_KEY_PREFIX_LENGTH = 12;
const CIPHER = 'aes-256-gcm';
const FORMAT_VERSION = 'v1';

export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX_LENGTH);
}

export interface ApiKeyCipher {
  encrypt(key: string): string;
  /** The key, or null when it was sealed under another secret or was tampered with. */
  decrypt(sealed: string): string | null;
}

/**
 * Seals API keys so their owner can read them back (GET /auth/api-keys) while a database dump
 * alone does not reveal them. The AES key is derived from JWT_SECRET with HKDF.
 */
export function createApiKeyCipher(secret: string): ApiKeyCipher {
  const aesKey = Buffer.from(hkdfSync('sha256', secret, 'reelsmith-api-keys', 'api key encryption v1', 32));
  return {
    encrypt(key) {
      const iv = randomBytes(12);
      const cipher = createCipheriv(CIPHER, aesKey, iv);
      const ciphertext = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [FORMAT_VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== FORMAT_VERSION || !iv || !tag || ciphertext === undefined) return null;
      try {
        const decipher = createDecipheriv(CIPHER, aesKey, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** The cipher of stored webhook signing secrets: the same scheme as API keys, under its own derived key. */
export function webhookSecretCipher(encryptionKey: string): ApiKeyCipher {
  return createApiKeyCipher(`${encryptionKey}:webhooks`);
}
