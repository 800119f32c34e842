import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { PaymentGateway, ProviderPayment } from './payment-gateway.js';
import { isValidPaymentSignature, paymentSignature } from './signatures.js';

const SECRET_FILE = 'test-checkout-secret.json';
const secretFileSchema = z.object({ keySecret: z.string().min(32) });

/** The test checkout's signing secret, generated once into DATA_DIR (like the JWT secret) so restarts keep it. */
export function loadOrCreateTestCheckoutSecret(dataDir: string): string {
  const file = join(dataDir, SECRET_FILE);
  if (existsSync(file)) {
    const parsed = secretFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) throw new Error(`${file} has no usable keySecret; delete it to generate a new one`);
    return parsed.data.keySecret;
  }
  const keySecret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${JSON.stringify({ keySecret }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return keySecret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateTestCheckoutSecret(dataDir);
    throw error;
  }
}

/** The stored order a test payment pays for. */
export interface TestCheckoutOrder {
  providerOrderId: string;
  amount: number;
  currency: string;
}

/**
 * The offline provider behind the TEST MODE checkout: it creates order ids and signs payments with a
 * local secret exactly as Razorpay signs them, so POST /payments/verify-payment runs unchanged.
 * Payments live in memory: a test payment is made and verified within seconds of each other.
 */
export class TestCheckoutGateway implements PaymentGateway {
  readonly mode = 'test' as const;
  readonly publicKeyId = null;
  readonly #keySecret: string;
  readonly #payments = new Map<string, ProviderPayment>();

  constructor(keySecret: string) {
    this.#keySecret = keySecret;
  }

  // The amount is bound later, from the stored order, when the tester pays.
  async createOrder(): Promise<{ id: string }> {
    return { id: `order_test_${randomBytes(9).toString('base64url')}` };
  }

  /** What the in-page checkout's "Pay successfully" does: captures the order's full amount and signs the result. */
  pay(order: TestCheckoutOrder): { paymentId: string; signature: string } {
    const paymentId = this.#record(order, 'captured');
    return { paymentId, signature: paymentSignature(this.#keySecret, order.providerOrderId, paymentId) };
  }

  /** "Fail payment": recorded as Razorpay records a declined attempt, and never signed. */
  fail(order: TestCheckoutOrder): void {
    this.#record(order, 'failed');
  }

  /** Records an attempt at the order's full amount, as fetchPayment reads it back; returns its id. */
  #record(order: TestCheckoutOrder, status: 'captured' | 'failed'): string {
    const paymentId = `pay_test_${randomBytes(9).toString('base64url')}`;
    this.#payments.set(paymentId, {
      id: paymentId,
      orderId: order.providerOrderId,
      amount: order.amount,
      currency: order.currency,
      status,
    });
    return paymentId;
  }

  isValidPaymentSignature(orderId: string, paymentId: string, signature: string): boolean {
    return isValidPaymentSignature(this.#keySecret, orderId, paymentId, signature);
  }

  async fetchPayment(paymentId: string): Promise<ProviderPayment | null> {
    return this.#payments.get(paymentId) ?? null;
  }
}
