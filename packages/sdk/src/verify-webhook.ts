import { batchWebhookEventSchema, webhookEventSchema, type BatchWebhookEvent, type WebhookEvent } from '@reelsmith/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Deliveries older than this are refused, so a captured request cannot be replayed later. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/**
 * Checks a delivery's Reelsmith-Signature header (`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`)
 * against the webhook's secret and returns the parsed event. Pass the raw body exactly as received.
 * Throws WebhookVerificationError when the signature, timestamp or body is wrong.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  { toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS, now = Date.now() }: { toleranceSeconds?: number; now?: number } = {},
): WebhookEvent | BatchWebhookEvent {
  if (!header) throw new WebhookVerificationError('Missing Reelsmith-Signature header');
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const [key, ...rest] = item.trim().split('=');
    if (key && rest.length > 0) parts.set(key, [...(parts.get(key) ?? []), rest.join('=')]);
  }
  const timestamp = Number(parts.get('t')?.[0]);
  const signatures = parts.get('v1') ?? [];
  if (!Number.isInteger(timestamp) || signatures.length === 0) throw new WebhookVerificationError('Malformed Reelsmith-Signature header');
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) throw new WebhookVerificationError('Webhook timestamp is outside the tolerance');
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('Webhook signature does not match');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new WebhookVerificationError('Webhook body is not JSON');
  }
  // A video's event, or a batch's (`type: 'batch.completed'`): narrow on `type`.
  const event =
    (parsed as { type?: unknown } | null)?.type === 'batch.completed'
      ? batchWebhookEventSchema.safeParse(parsed)
      : webhookEventSchema.safeParse(parsed);
  if (!event.success) throw new WebhookVerificationError('Webhook body is not a Reelsmith event');
  return event.data;
}
