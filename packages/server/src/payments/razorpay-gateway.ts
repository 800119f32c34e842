import { z } from 'zod';
import type { CreateProviderOrder, PaymentGateway, ProviderPayment } from './payment-gateway.js';
import { PaymentProviderError } from './payment-gateway.js';
import { isValidPaymentSignature } from './signatures.js';

export interface RazorpaySettings {
  keyId: string;
  keySecret: string;
  /** https://api.razorpay.com, or a local fake in tests. */
  apiBaseUrl: string;
  fetch?: typeof fetch;
  /** Per-call limit; Razorpay answers within a second or two. */
  timeoutMs?: number;
}

const orderSchema = z.object({ id: z.string().min(1), amount: z.number().int(), currency: z.string(), status: z.string() });
const paymentSchema = z.object({
  id: z.string(),
  order_id: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string(),
});
const errorSchema = z.object({ error: z.object({ code: z.string().optional(), description: z.string().optional() }) });

/** Razorpay's Orders and Payments API (basic auth with the key id and secret). */
export class RazorpayGateway implements PaymentGateway {
  readonly mode = 'razorpay' as const;
  readonly publicKeyId: string;
  readonly #settings: RazorpaySettings;

  constructor(settings: RazorpaySettings) {
    this.#settings = settings;
    this.publicKeyId = settings.keyId;
  }

  async #request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const { keyId, keySecret, apiBaseUrl, timeoutMs = 15_000 } = this.#settings;
    const doFetch = this.#settings.fetch ?? globalThis.fetch;
    const authorization = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;
    let response: Response;
    try {
      response = await doFetch(`${apiBaseUrl}${path}`, {
        method,
        headers: { authorization, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new PaymentProviderError(`Razorpay could not be reached: ${(cause as Error).message}`, 502, null);
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!response.ok) {
      const parsed = errorSchema.safeParse(json);
      const description = parsed.success ? (parsed.data.error.description ?? 'no description') : `HTTP ${response.status}`;
      throw new PaymentProviderError(
        `Razorpay ${method} ${path} failed: ${description}`,
        response.status,
        parsed.success ? (parsed.data.error.code ?? null) : null,
      );
    }
    return { status: response.status, json };
  }

  async createOrder(order: CreateProviderOrder): Promise<{ id: string }> {
    const { json } = await this.#request('POST', '/v1/orders', {
      amount: order.amount,
      currency: order.currency,
      receipt: order.receipt,
      notes: order.notes,
    });
    const parsed = orderSchema.safeParse(json);
    if (!parsed.success) throw new PaymentProviderError('Razorpay returned an order without an id', 502, null);
    if (parsed.data.amount !== order.amount || parsed.data.currency !== order.currency) {
      throw new PaymentProviderError('Razorpay created an order for a different amount or currency', 502, null);
    }
    return { id: parsed.data.id };
  }

  isValidPaymentSignature(orderId: string, paymentId: string, signature: string): boolean {
    return isValidPaymentSignature(this.#settings.keySecret, orderId, paymentId, signature);
  }

  async fetchPayment(paymentId: string): Promise<ProviderPayment | null> {
    try {
      const { json } = await this.#request('GET', `/v1/payments/${encodeURIComponent(paymentId)}`);
      const parsed = paymentSchema.safeParse(json);
      if (!parsed.success || parsed.data.order_id === null) return null;
      const { id, order_id, amount, currency, status } = parsed.data;
      return { id, orderId: order_id, amount, currency, status };
    } catch (error) {
      if (error instanceof PaymentProviderError && (error.statusCode === 400 || error.statusCode === 404)) return null;
      throw error;
    }
  }
}
