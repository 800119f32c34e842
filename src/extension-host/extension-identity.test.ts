import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID, DEV_EXTENSION_PUBLIC_KEY } from './extension-identity.js';

describe('development extension identity', () => {
  it('is the id Chrome derives from the public key', () => {
    const hex = createHash('sha256').update(Buffer.from(DEV_EXTENSION_PUBLIC_KEY, 'base64')).digest('hex').slice(0, 32);
    const id = [...hex].map((digit) => String.fromCharCode(97 + parseInt(digit, 16))).join('');
    expect(id).toBe(DEV_EXTENSION_ID);
  });
});
