import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type { Config } from '../config.js';
import { HttpError } from '../errors.js';

export const GOOGLE_MESSAGES = {
  notConfigured: 'Google sign-in is not configured on this server',
  invalidCredential: 'Google sign-in failed: the credential is invalid or has expired. Please try again.',
  emailNotVerified: 'Your Google account e-mail is not verified',
  unavailable: 'Google sign-in is temporarily unavailable. Please try again in a moment.',
} as const;

/** Errors that mean the credential itself is bad; anything else (fetching the keys) is a 503. */
const CREDENTIAL_ERRORS = [
  joseErrors.JWTExpired,
  joseErrors.JWTClaimValidationFailed,
  joseErrors.JWTInvalid,
  joseErrors.JWSInvalid,
  joseErrors.JWSSignatureVerificationFailed,
  joseErrors.JWKSNoMatchingKey,
  joseErrors.JWKSMultipleMatchingKeys,
  joseErrors.JOSEAlgNotAllowed,
  joseErrors.JOSENotSupported,
];

export interface GoogleIdentity {
  sub: string;
  email: string;
  name: string | null;
}

export type GoogleCredentialVerifier = (credential: string) => Promise<GoogleIdentity>;

/**
 * Checks an ID token from Google Identity Services: signature against Google's published keys
 * (fetched and cached by jose), audience = our client id, issuer, expiry and a verified e-mail.
 */
export function createGoogleVerifier(google: Config['google']): GoogleCredentialVerifier | null {
  const clientId = google.clientId;
  if (!clientId) return null;
  const keys = createRemoteJWKSet(new URL(google.jwksUrl));
  return async (credential) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(credential, keys, { audience: clientId, issuer: google.issuers, algorithms: ['RS256'] }));
    } catch (error) {
      if (CREDENTIAL_ERRORS.some((type) => error instanceof type)) throw new HttpError(401, GOOGLE_MESSAGES.invalidCredential);
      // The key set could not be fetched: our side or Google's, not the user's credential.
      throw new HttpError(503, GOOGLE_MESSAGES.unavailable);
    }
    const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
    if (!payload.sub || !email) throw new HttpError(401, GOOGLE_MESSAGES.invalidCredential);
    if (payload.email_verified !== true && payload.email_verified !== 'true') {
      throw new HttpError(403, GOOGLE_MESSAGES.emailNotVerified);
    }
    const name = typeof payload.name === 'string' && payload.name.trim() !== '' ? payload.name.trim() : null;
    return { sub: payload.sub, email, name };
  };
}
