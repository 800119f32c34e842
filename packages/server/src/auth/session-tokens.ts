import { SignJWT, jwtVerify } from 'jose';

const ISSUER = 'reelsmith';
const ALGORITHM = 'HS256';

export interface SessionTokenClaims {
  sessionId: string;
  userId: string;
}

// jose imports raw key bytes into a CryptoKey on every call; importing once per secret took that
// (about 5% of the status route's CPU) off every authenticated request.
const keys = new Map<string, Promise<CryptoKey>>();
function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}

/** A bearer token naming the session; the session row stays the source of truth on every request. */
export async function signSessionToken(claims: SessionTokenClaims, expiresAt: Date, secret: string): Promise<string> {
  return await new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(await keyFor(secret));
}

/** Verified tokens seen recently, per secret: a studio polls with the same token many times a minute. */
const verified = new Map<string, Map<string, { claims: SessionTokenClaims; expiresAtMs: number }>>();
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * The claims of a valid, unexpired token signed with `secret`; null for anything else.
 *
 * A token that verified once verifies again until it expires (its bytes cannot change), so the
 * answer is remembered (bounded, least recently used first out) and only expiry is re-checked:
 * the HMAC check through WebCrypto was ~5% of an authenticated request. Revocation is unaffected:
 * the session row is still read on every request.
 */
export async function verifySessionToken(token: string, secret: string): Promise<SessionTokenClaims | null> {
  let known = verified.get(secret);
  if (!known) {
    known = new Map();
    verified.set(secret, known);
  }
  const hit = known.get(token);
  if (hit) {
    known.delete(token);
    if (hit.expiresAtMs <= Date.now()) return null;
    known.set(token, hit);
    return hit.claims;
  }
  try {
    const { payload } = await jwtVerify(token, await keyFor(secret), { algorithms: [ALGORITHM], issuer: ISSUER });
    if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
    const claims = { sessionId: payload.sid, userId: payload.sub };
    known.set(token, { claims, expiresAtMs: payload.exp * 1000 });
    if (known.size > VERIFIED_TOKENS_KEPT) known.delete(known.keys().next().value!);
    return claims;
  } catch {
    return null;
  }
}
