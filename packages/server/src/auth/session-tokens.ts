import { SignJWT, jwtVerify } from 'jose';

const ISSUER = 'reelsmith';
const ALGORITHM = 'HS256';

export interface SessionTokenClaims {
  sessionId: string;
  userId: string;
}

const keyFor = (secret: string) => new TextEncoder().encode(secret);

/** A bearer token naming the session; the session row stays the source of truth on every request. */
export function signSessionToken(claims: SessionTokenClaims, expiresAt: Date, secret: string): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(keyFor(secret));
}

/** The claims of a valid, unexpired token signed with `secret`; null for anything else. */
export async function verifySessionToken(token: string, secret: string): Promise<SessionTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keyFor(secret), { algorithms: [ALGORITHM], issuer: ISSUER });
    if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null;
    return { sessionId: payload.sid, userId: payload.sub };
  } catch {
    return null;
  }
}
