import { MESSAGES } from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { PaymentProviderError } from '@reelsmith/server/testing';
import { RazorpayGateway } from '@reelsmith/server/testing';
import { paymentSignature } from '@reelsmith/server/testing';
import { createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/** These tests generate no videos: the job queue stays stopped and never reaches a pipeline. */
const noVideoJobs = {
  runner: async (): Promise<never> => {
    throw new Error('payments tests generate no videos');
  },
  providersFor: (): never => {
    throw new Error('payments tests generate no videos');
  },
  autoStart: false,
};

const KEY_ID = 'rzp_test_FakeKey123';
const KEY_SECRET = 'fake_razorpay_key_secret_value';

interface FakeOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  notes: Record<string, string>;
  status: string;
}
interface FakePayment {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  status: string;
}

/** Speaks the part of Razorpay's REST API the server uses, with Razorpay's error body shape. */
class FakeRazorpay {
  server: Server = createServer((request, response) => void this.handle(request, response));
  orders = new Map<string, FakeOrder>();
  payments = new Map<string, FakePayment>();
  requests: { method: string; url: string; authorization: string | undefined; body: unknown }[] = [];
  /** When set, the next order creation fails with this Razorpay error. */
  failNextOrder: { status: number; description: string } | null = null;

  get url() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  start() {
    return new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** What Razorpay's checkout does when the buyer pays: a captured payment and the handler's signed result. */
  capture(orderId: string, amount?: number) {
    const order = this.orders.get(orderId)!;
    const id = `pay_${randomBytes(7).toString('hex')}`;
    this.payments.set(id, { id, order_id: orderId, amount: amount ?? order.amount, currency: order.currency, status: 'captured' });
    return { paymentId: id, signature: paymentSignature(KEY_SECRET, orderId, id) };
  }

  private async handle(request: IncomingMessage, response: import('node:http').ServerResponse) {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    this.requests.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization, body });
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    const error = (status: number, description: string) =>
      send(status, { error: { code: 'BAD_REQUEST_ERROR', description, source: 'NA', step: 'NA', reason: 'NA', metadata: {} } });

    if (request.headers.authorization !== `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`) {
      return error(401, 'Authentication failed');
    }
    if (request.method === 'POST' && request.url === '/v1/orders') {
      if (this.failNextOrder) {
        const { status, description } = this.failNextOrder;
        this.failNextOrder = null;
        return error(status, description);
      }
      if (!Number.isInteger(body.amount) || body.amount < 100) return error(400, 'Order amount less than minimum amount allowed');
      if (!['INR', 'USD'].includes(body.currency)) return error(400, 'Currency is not supported');
      const order: FakeOrder = {
        id: `order_${randomBytes(7).toString('hex')}`,
        amount: body.amount,
        currency: body.currency,
        receipt: body.receipt,
        notes: body.notes,
        status: 'created',
      };
      this.orders.set(order.id, order);
      return send(200, { entity: 'order', amount_paid: 0, amount_due: order.amount, attempts: 0, created_at: 1_700_000_000, ...order });
    }
    const paymentMatch = /^\/v1\/payments\/([^/]+)$/.exec(request.url ?? '');
    if (request.method === 'GET' && paymentMatch) {
      const payment = this.payments.get(decodeURIComponent(paymentMatch[1]!));
      if (!payment) return error(400, 'The id provided does not exist');
      return send(200, { entity: 'payment', method: 'upi', captured: true, ...payment });
    }
    return error(404, 'The requested URL was not found on the server.');
  }
}

describe('RazorpayGateway against a local fake', () => {
  const fake = new FakeRazorpay();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('creates orders with basic auth and {amount, currency, receipt, notes}', async () => {
    const gateway = new RazorpayGateway({ keyId: KEY_ID, keySecret: KEY_SECRET, apiBaseUrl: fake.url });
    const { id } = await gateway.createOrder({ amount: 23_482, currency: 'INR', receipt: 'r-1', notes: { planId: 'essentials_plan' } });
    expect(id).toMatch(/^order_/);
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      url: '/v1/orders',
      body: { amount: 23_482, currency: 'INR', receipt: 'r-1', notes: { planId: 'essentials_plan' } },
    });
  });

  it("surfaces Razorpay's error description and code", async () => {
    const gateway = new RazorpayGateway({ keyId: KEY_ID, keySecret: KEY_SECRET, apiBaseUrl: fake.url });
    const failure = gateway.createOrder({ amount: 50, currency: 'INR', receipt: 'r-2', notes: {} });
    await expect(failure).rejects.toBeInstanceOf(PaymentProviderError);
    await expect(failure).rejects.toMatchObject({
      statusCode: 400,
      code: 'BAD_REQUEST_ERROR',
      message: expect.stringContaining('minimum amount'),
    });
    const wrongKey = new RazorpayGateway({ keyId: KEY_ID, keySecret: 'wrong', apiBaseUrl: fake.url });
    await expect(wrongKey.createOrder({ amount: 500, currency: 'USD', receipt: 'r-3', notes: {} })).rejects.toMatchObject({
      statusCode: 401,
      message: expect.stringContaining('Authentication failed'),
    });
  });

  it('reports an unreachable API as a provider error', async () => {
    const gateway = new RazorpayGateway({ keyId: KEY_ID, keySecret: KEY_SECRET, apiBaseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 });
    await expect(gateway.createOrder({ amount: 500, currency: 'USD', receipt: 'r', notes: {} })).rejects.toMatchObject({ statusCode: 502 });
  });

  it('fetches payments, and reads an unknown one as missing', async () => {
    const gateway = new RazorpayGateway({ keyId: KEY_ID, keySecret: KEY_SECRET, apiBaseUrl: fake.url });
    const { id } = await gateway.createOrder({ amount: 999, currency: 'USD', receipt: 'r-4', notes: {} });
    const { paymentId, signature } = fake.capture(id);
    expect(await gateway.fetchPayment(paymentId)).toEqual({ id: paymentId, orderId: id, amount: 999, currency: 'USD', status: 'captured' });
    expect(await gateway.fetchPayment('pay_missing')).toBeNull();
    expect(gateway.isValidPaymentSignature(id, paymentId, signature)).toBe(true);
    expect(
      gateway.isValidPaymentSignature(
        id,
        paymentId,
        signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      ),
    ).toBe(false);
  });
});

describe('payments through Razorpay (fake API)', () => {
  const fake = new FakeRazorpay();
  let database: TestDatabase;
  let app: App;
  const logLines: string[] = [];

  beforeAll(async () => {
    await fake.start();
    database = await createTestDatabase('sqlite');
    app = await buildApp(
      database.config({
        RAZORPAY_KEY_ID: KEY_ID,
        RAZORPAY_KEY_SECRET: KEY_SECRET,
        RAZORPAY_API_BASE_URL: fake.url,
        RATE_LIMIT_AUTH_MAX: '1000',
        LOG_LEVEL: 'info',
      }),
      {
        voices: { autoGenerateOfflineSamples: false },
        jobs: noVideoJobs,
        logStream: { write: (line: string) => void logLines.push(line) },
      },
    );
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
    await fake.stop();
  });
  beforeEach(() => {
    fake.failNextOrder = null;
  });

  async function signUp() {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Ravi Kumar', email: `rzp-${randomUUID().slice(0, 8)}@example.com`, password: 'long-enough-password' },
    });
    return { authorization: `Bearer ${response.json().token}` };
  }

  it('creates a Razorpay order and activates the plan on a payment Razorpay signed and captured', async () => {
    const headers = await signUp();
    const order = await app.inject({
      method: 'POST',
      url: '/payments/create-order',
      headers,
      payload: { planId: 'basic_plan', currency: 'INR' },
    });
    expect(order.statusCode, order.body).toBe(200);
    const body = order.json();
    expect(body).toMatchObject({
      checkoutMode: 'razorpay',
      razorpayKeyId: KEY_ID,
      requiresPayment: true,
      order: { amount: 1_17_882, currency: 'INR' },
    });
    const sent = fake.orders.get(body.order.orderId)!;
    expect(sent).toMatchObject({ amount: 1_17_882, currency: 'INR', notes: { planId: 'basic_plan', kind: 'new' } });
    expect(sent.receipt).toMatch(/^[0-9a-f-]{36}$/);

    const { paymentId, signature } = fake.capture(body.order.orderId);
    const verify = await app.inject({
      method: 'POST',
      url: '/payments/verify-payment',
      headers,
      payload: { orderId: body.order.orderId, paymentId, signature, planId: 'basic_plan', currency: 'INR' },
    });
    expect(verify.statusCode, verify.body).toBe(200);
    expect(verify.json().subscription).toMatchObject({ planId: 'basic_plan', status: 'active' });
  });

  it('activates nothing when the captured amount is less than the order', async () => {
    const headers = await signUp();
    const body = (
      await app.inject({ method: 'POST', url: '/payments/create-order', headers, payload: { planId: 'pro_plan', currency: 'USD' } })
    ).json();
    const { paymentId, signature } = fake.capture(body.order.orderId, 100);
    const verify = await app.inject({
      method: 'POST',
      url: '/payments/verify-payment',
      headers,
      payload: { orderId: body.order.orderId, paymentId, signature, planId: 'pro_plan', currency: 'USD' },
    });
    expect(verify.statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/payments/subscription', headers })).json().subscription).toBeNull();
  });

  it('answers a provider failure with the spec message and never logs the key secret', async () => {
    const headers = await signUp();
    fake.failNextOrder = { status: 400, description: 'The api key provided is invalid' };
    const order = await app.inject({
      method: 'POST',
      url: '/payments/create-order',
      headers,
      payload: { planId: 'starter_plan', currency: 'INR' },
    });
    expect(order.statusCode).toBe(502);
    expect(order.json().message).toBe(MESSAGES.orderFailed);
    const logs = logLines.join('\n');
    expect(logs).toContain('The api key provided is invalid');
    expect(logs).not.toContain(KEY_SECRET);
    expect(logs).not.toContain(Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64'));
  });

  it('has no test checkout when Razorpay is configured', async () => {
    const headers = await signUp();
    const response = await app.inject({
      method: 'POST',
      url: '/payments/test-checkout/pay',
      headers,
      payload: { orderId: 'order_x', outcome: 'success' },
    });
    expect(response.statusCode).toBe(404);
  });

  it('answers the webhook with 503 while its secret is unset', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/payments/webhook',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': 'a' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(503);
  });
});
