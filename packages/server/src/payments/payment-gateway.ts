import type { Currency } from '@reelsmith/contracts';

export interface CreateProviderOrder {
  /** Minor units. */
  amount: number;
  currency: Currency;
  /** Our order id. */
  receipt: string;
  notes: Record<string, string>;
}

/** A payment as the provider reports it, for checking the amount before anything is activated. */
export interface ProviderPayment {
  id: string;
  orderId: string;
  amount: number;
  currency: string;
  /** Razorpay's payment statuses; only 'authorized' and 'captured' mean the money is there. */
  status: string;
}

/**
 * What the payments service needs from a provider. Razorpay implements it over HTTP; the built-in
 * test checkout implements it locally with the same signature scheme, so verification is one code path.
 */
export interface PaymentGateway {
  readonly mode: 'razorpay' | 'test';
  /** The public key the checkout needs (null in test mode). */
  readonly publicKeyId: string | null;
  createOrder(order: CreateProviderOrder): Promise<{ id: string }>;
  /** HMAC-SHA256(order_id|payment_id) with the provider secret, compared in constant time. */
  isValidPaymentSignature(orderId: string, paymentId: string, signature: string): boolean;
  fetchPayment(paymentId: string): Promise<ProviderPayment | null>;
}

/** A provider call that failed; `description` is the provider's own explanation, safe to log. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
  constructor(
    message: string,
    readonly statusCode: number,
    readonly code: string | null,
  ) {
    super(message);
  }
}

export const PAID_PAYMENT_STATUSES = new Set(['authorized', 'captured']);
