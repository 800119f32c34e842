import { describe, expect, it } from 'vitest';
import { apiKeyPrefix, createApiKeyCipher, generateApiKey, hashApiKey } from './api-keys.js';

describe('API keys', () => {
  const secret = 'a'.repeat(40);

  it('are random, prefixed and hashed with SHA-256', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).not.toBe(key);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 12));
  });

  it('decrypt what they encrypt, with a fresh IV each time', () => {
    const cipher = createApiKeyCipher(secret);
    const key = generateApiKey();
    const sealed = cipher.encrypt(key);
    expect(sealed).not.toContain(key);
    expect(cipher.encrypt(key)).not.toBe(sealed);
    expect(cipher.decrypt(sealed)).toBe(key);
  });

  it('refuse keys sealed under another secret or tampered with', () => {
    const sealed = createApiKeyCipher(secret).encrypt(generateApiKey());
    expect(createApiKeyCipher('b'.repeat(40)).decrypt(sealed)).toBeNull();
    const parts = sealed.split('.');
    const tampered = [...parts.slice(0, 3), Buffer.from('x'.repeat(40)).toString('base64url')].join('.');
    expect(createApiKeyCipher(secret).decrypt(tampered)).toBeNull();
    expect(createApiKeyCipher(secret).decrypt('garbage')).toBeNull();
  });
});
