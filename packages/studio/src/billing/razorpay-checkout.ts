import type { Currency } from '@reelsmith/contracts';
import { paymentHandlerResultSchema, type PaymentHandlerResult } from '@reelsmith/contracts';

export const RAZORPAY_CHECKOUT_URL = 'https://checkout.razorpay.com/v1/checkout.js';

interface RazorpayOptions {
  key: string;
  amount: number;
  currency: Currency;
  order_id: string;
  name: string;
  description: string;
  prefill?: { name?: string; email?: string };
  theme?: { color: string };
  handler(response: unknown): void;
  modal?: { ondismiss?(): void };
}
interface RazorpayInstance {
  open(): void;
  on(event: 'payment.failed', callback: (response: unknown) => void): void;
}
type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayInstance;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

let loading: Promise<boolean> | null = null;

/** Loads Razorpay's checkout.js once; false when it cannot be loaded (blocked, offline). */
export function loadRazorpayCheckout(doc: Document = document): Promise<boolean> {
  if (typeof window !== 'undefined' && window.Razorpay) return Promise.resolve(true);
  loading ??= new Promise<boolean>((resolve) => {
    const script = doc.createElement('script');
    script.src = RAZORPAY_CHECKOUT_URL;
    script.async = true;
    script.onload = () => resolve(Boolean(window.Razorpay));
    script.onerror = () => {
      script.remove();
      loading = null;
      resolve(false);
    };
    doc.head.appendChild(script);
  });
  return loading;
}

export interface RazorpayCheckoutInput {
  keyId: string;
  orderId: string;
  amount: number;
  currency: Currency;
  description: string;
  prefill: { name?: string; email?: string };
}

/** Opens Razorpay's checkout; resolves with the signed handler result, or null when the buyer closes it. */
export function openRazorpayCheckout(input: RazorpayCheckoutInput): Promise<PaymentHandlerResult | null> {
  const Razorpay = window.Razorpay;
  if (!Razorpay) return Promise.reject(new Error('Razorpay checkout is not loaded'));
  return new Promise((resolve) => {
    const checkout = new Razorpay({
      key: input.keyId,
      amount: input.amount,
      currency: input.currency,
      order_id: input.orderId,
      name: 'Reelsmith',
      description: input.description,
      prefill: input.prefill,
      theme: { color: '#8b5cf6' },
      // A malformed result still goes to verification, which rejects it with the spec's message.
      handler: (response) => {
        const parsed = paymentHandlerResultSchema.safeParse(response);
        resolve(parsed.success ? parsed.data : { razorpay_payment_id: '', razorpay_order_id: input.orderId, razorpay_signature: '' });
      },
      modal: { ondismiss: () => resolve(null) },
    });
    checkout.open();
  });
}
