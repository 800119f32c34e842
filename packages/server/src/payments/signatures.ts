import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha256Hex(secret: string, payload: string | Buffer): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** Constant-time comparison of two hex digests; false for anything that is not one of the same length. */
export function hexDigestsEqual(expected: string, received: string): boolean {
  if (!/^[0-9a-f]+$/i.test(received) || received.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected.toLowerCase(), 'hex'), Buffer.from(received.toLowerCase(), 'hex'));
}

/** Razorpay's checkout signature: HMAC-SHA256 of `order_id|payment_id` with the key secret. */
export function paymentSignature(keySecret: string, orderId: string, paymentId: string): string {
  return hmacSha256Hex(keySecret, `${orderId}|${paymentId}`);
}

export function isValidPaymentSignature(keySecret: string, orderId: string, paymentId: string, signature: string): boolean {
  return hexDigestsEqual(paymentSignature(keySecret, orderId, paymentId), signature);
}

/** Razorpay's webhook signature (X-Razorpay-Signature): HMAC-SHA256 of the raw request body. */
export function isValidWebhookSignature(webhookSecret: string, rawBody: Buffer, signature: string): boolean {
  return hexDigestsEqual(hmacSha256Hex(webhookSecret, rawBody), signature);
}
