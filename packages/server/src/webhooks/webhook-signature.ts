import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_…`: shown once when the webhook is created. */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** The Reelsmith-Signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function signWebhookBody(secret: string, rawBody: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
