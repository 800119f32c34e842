import { afterEach, describe, expect, it, vi } from 'vitest';
import { signSessionToken, verifySessionToken } from './session-tokens.js';

const SECRET = 'a-secret-that-is-long-enough-for-hs256-signing';
const claims = { sessionId: 'session-1', userId: 'user-1' };

describe('session tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('verifies its own tokens, again and again, and nothing else', async () => {
    const token = await signSessionToken(claims, new Date(Date.now() + 60_000), SECRET);
    expect(await verifySessionToken(token, SECRET)).toEqual(claims);
    expect(await verifySessionToken(token, SECRET)).toEqual(claims);
    // A token remembered as valid under one secret is not valid under another.
    expect(await verifySessionToken(token, `${SECRET}-rotated`)).toBeNull();
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ sid: 'session-2', sub: 'user-2', iss: 'reelsmith', exp: 9_999_999_999 })).toString('base64url')}.${signature}`;
    expect(await verifySessionToken(forged, SECRET)).toBeNull();
    expect(await verifySessionToken(`${header}.${payload}.${signature!.slice(0, -2)}xx`, SECRET)).toBeNull();
    expect(await verifySessionToken('not-a-token', SECRET)).toBeNull();
  });

  it('stops accepting a remembered token once it expires', async () => {
    const now = Date.now();
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const token = await signSessionToken(claims, new Date(now + 5_000), SECRET);
    expect(await verifySessionToken(token, SECRET)).toEqual(claims);
    vi.setSystemTime(now + 6_000);
    expect(await verifySessionToken(token, SECRET)).toBeNull();
  });
});
