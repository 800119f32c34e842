import { recordVideoMade } from '@reelsmith/server/testing';
import { MESSAGES, VALIDATION_MESSAGES as V } from '@reelsmith/contracts';
import { buildApp, type App } from '@reelsmith/server/testing';
import { hmacSha256Hex, paymentSignature } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
const quiet = { voices: { autoGenerateOfflineSamples: false }, jobs: noVideoJobs };
const WEBHOOK_SECRET = 'whsec_test_0123456789';
const DAY = 86_400_000;

describe.each(TEST_DIALECTS)('payments on %s (TEST MODE checkout)', (dialect) => {
  let database: TestDatabase;
  let app: App;
  let clock = new Date('2026-03-10T09:00:00.000Z');
  const advance = (days: number) => {
    clock = new Date(clock.getTime() + days * DAY);
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET }), {
      ...quiet,
      payments: { now: () => clock, countryLookup: (ip) => (ip === '49.36.0.1' ? 'IN' : ip === '8.8.8.8' ? 'US' : null) },
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  async function signUp() {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Meera Shah', email: `buyer-${randomUUID().slice(0, 8)}@example.com`, password: 'long-enough-password' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { user: { id: string }; token: string };
    return { userId: body.user.id, headers: { authorization: `Bearer ${body.token}` } };
  }
  type Buyer = Awaited<ReturnType<typeof signUp>>;

  const get = (buyer: Buyer, url: string) => app.inject({ method: 'GET', url, headers: buyer.headers });
  const post = (buyer: Buyer, url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, headers: buyer.headers, payload: payload as object });

  async function addJob(buyer: Buyer, status = 'completed') {
    const at = clock.toISOString();
    const id = randomUUID();
    await app.db
      .insertInto('video_jobs')
      .values({
        id,
        user_id: buyer.userId,
        status: status as 'completed',
        params: '{}',
        steps: '{}',
        created_at: at,
        updated_at: at,
        result: null,
        error: null,
        current_step: null,
        started_at: null,
        completed_at: null,
      })
      .execute();
    await recordVideoMade(app.db, { jobId: id, userId: buyer.userId, createdAt: at });
  }

  /** create-order, the test checkout's "Pay successfully", verify-payment: what the studio does. */
  async function buy(buyer: Buyer, planId: string, currency = 'INR') {
    const order = await post(buyer, '/payments/create-order', { planId, currency });
    expect(order.statusCode, order.body).toBe(200);
    const orderBody = order.json();
    if (!orderBody.requiresPayment) return { order: orderBody, verify: null };
    const paid = await post(buyer, '/payments/test-checkout/pay', { orderId: orderBody.order.orderId, outcome: 'success' });
    expect(paid.statusCode, paid.body).toBe(200);
    const handler = paid.json();
    const verify = await post(buyer, '/payments/verify-payment', {
      orderId: handler.razorpay_order_id,
      paymentId: handler.razorpay_payment_id,
      signature: handler.razorpay_signature,
      planId,
      currency,
    });
    return { order: orderBody, handler, verify };
  }

  const subscriptionOf = async (buyer: Buyer) => (await get(buyer, '/payments/subscription')).json();
  const canGenerate = async (buyer: Buyer, duration?: number) =>
    (await get(buyer, `/payments/can-generate${duration ? `?duration=${duration}` : ''}`)).json();

  it('lists plans in tier order with GST on INR and none on USD, without signing in', async () => {
    const inr = await app.inject({ method: 'GET', url: '/payments/plans?currency=INR' });
    expect(inr.statusCode).toBe(200);
    expect(inr.json().plans.map((p: { id: string }) => p.id)).toEqual(['essentials_plan', 'starter_plan', 'basic_plan', 'pro_plan']);
    expect(inr.json().plans[0]).toMatchObject({
      price: 199,
      currency: 'INR',
      hasGst: true,
      gstAmount: 35.82,
      totalAmount: 234.82,
      videoLimit: 10,
    });
    expect(inr.json().plans[3].videoLimit).toBe(-1);
    const usd = await app.inject({ method: 'GET', url: '/payments/plans?currency=USD' });
    expect(usd.json().plans[0]).toMatchObject({ price: 4.99, hasGst: false, gstAmount: 0, totalAmount: 4.99 });
    expect((await app.inject({ method: 'GET', url: '/payments/plans' })).json().currency).toBe('INR');
  });

  it('persists the test checkout signing secret in DATA_DIR', () => {
    const stored = JSON.parse(readFileSync(join(database.dataDir, 'test-checkout-secret.json'), 'utf8'));
    expect(stored.keySecret.length).toBeGreaterThanOrEqual(32);
  });

  it('runs the whole lifecycle: free video, limit, purchase, upgrade with proration, cancel, expire, renew, reactivate', async () => {
    clock = new Date('2026-03-10T09:00:00.000Z');
    const buyer = await signUp();
    expect(await subscriptionOf(buyer)).toEqual({ subscription: null, usage: { videosThisMonth: 0 } });

    // One free video of at most 30 seconds.
    expect(await canGenerate(buyer, 30)).toEqual({ canGenerate: true, isFreeVideo: true, reason: null });
    expect(await canGenerate(buyer, 60)).toEqual({ canGenerate: false, isFreeVideo: true, reason: V.freeVideoTooLong });
    clock = new Date('2026-03-10T08:00:00.000Z');
    await addJob(buyer);
    expect(await canGenerate(buyer)).toEqual({ canGenerate: false, isFreeVideo: false, reason: MESSAGES.subscriptionRequired });
    clock = new Date('2026-03-10T09:00:00.000Z');

    // Buy Essentials (₹199 + 18 % GST = ₹234.82 → 23482 paise).
    const first = await buy(buyer, 'essentials_plan');
    expect(first.order).toMatchObject({
      order: {
        amount: 23_482,
        currency: 'INR',
        plan: { name: 'Essentials', price: 199, hasGst: true, gstAmount: 35.82, totalAmount: 234.82 },
      },
      checkoutMode: 'test',
      razorpayKeyId: null,
      proration: null,
      requiresPayment: true,
    });
    expect(first.verify?.statusCode).toBe(200);
    expect(first.verify?.json()).toMatchObject({
      success: true,
      subscription: {
        planId: 'essentials_plan',
        planName: 'Essentials',
        status: 'active',
        startDate: '2026-03-10T09:00:00.000Z',
        endDate: '2026-04-10T09:00:00.000Z',
        videoLimit: 10,
        cancelled_at: null,
      },
    });
    expect(await canGenerate(buyer, 90)).toEqual({ canGenerate: true, isFreeVideo: false, reason: null });
    // The free video made before buying is not one of the plan's: '0 / 10', not '1 / 10'.
    expect((await subscriptionOf(buyer)).usage).toEqual({ videosThisMonth: 0 });

    // The limit: 10 of the plan's videos this month; failed ones do not count.
    for (let i = 0; i < 10; i += 1) await addJob(buyer);
    await addJob(buyer, 'failed');
    expect((await subscriptionOf(buyer)).usage).toEqual({ videosThisMonth: 10 });
    expect(await canGenerate(buyer, 30)).toEqual({ canGenerate: false, isFreeVideo: false, reason: MESSAGES.videoLimitReached(10) });

    // Same plan again, or a lower one, is refused.
    const same = await post(buyer, '/payments/create-order', { planId: 'essentials_plan', currency: 'INR' });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(MESSAGES.currentPlanChosen);

    // Upgrade to Basic 12 days in: (₹999 − ₹199) × 19/31 = ₹490.32, + GST ₹88.26 = ₹578.58.
    advance(12);
    const upgrade = await buy(buyer, 'basic_plan');
    expect(upgrade.order.proration).toMatchObject({
      isProrated: true,
      amount: 490.32,
      breakdown: {
        remainingDays: 19,
        currentPlan: 'Essentials',
        newPlan: 'Basic',
        calculation: '(₹999.00 - ₹199.00) × 19/31 days = ₹490.32',
      },
    });
    expect(upgrade.order.order).toMatchObject({ amount: 57_858, plan: { price: 490.32, gstAmount: 88.26, totalAmount: 578.58 } });
    expect(upgrade.verify?.json().subscription).toMatchObject({
      planId: 'basic_plan',
      status: 'active',
      endDate: '2026-04-10T09:00:00.000Z',
    });
    expect(await canGenerate(buyer, 60)).toMatchObject({ canGenerate: true });

    const downgrade = await post(buyer, '/payments/create-order', { planId: 'starter_plan', currency: 'INR' });
    expect(downgrade.statusCode).toBe(409);
    expect(downgrade.json().message).toBe(MESSAGES.downgradeNotAllowed);

    // Cancel: a reason is required; access continues until the end date.
    const noReason = await post(buyer, '/payments/cancel-subscription', { reason: '   ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe(V.cancellationReasonRequired);
    const cancelled = await post(buyer, '/payments/cancel-subscription', { reason: 'Trying another tool' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      success: true,
      message: MESSAGES.subscriptionCancelled,
      subscription: { status: 'cancelled', cancelledAt: clock.toISOString() },
    });
    expect((await post(buyer, '/payments/cancel-subscription', { reason: 'again' })).statusCode).toBe(409);
    expect(await canGenerate(buyer, 90)).toMatchObject({ canGenerate: true });

    // Reactivate the cancelled plan while it is paid for: nothing to pay.
    const reactivate = await buy(buyer, 'basic_plan');
    expect(reactivate.order).toMatchObject({
      requiresPayment: false,
      order: null,
      message: 'Your Basic plan is active again until Apr 10, 2026. No payment is needed.',
    });
    expect((await subscriptionOf(buyer)).subscription).toMatchObject({ status: 'active', cancelled_at: null });

    // Cancel again, then the clock passes the end date: expired on read, no job needed.
    await post(buyer, '/payments/cancel-subscription', { reason: 'Budget' });
    clock = new Date('2026-04-10T09:00:00.000Z');
    expect((await subscriptionOf(buyer)).subscription).toMatchObject({ status: 'expired', endDate: '2026-04-10T09:00:00.000Z' });
    expect(await canGenerate(buyer, 30)).toEqual({ canGenerate: false, isFreeVideo: false, reason: MESSAGES.subscriptionRequired });
    expect((await post(buyer, '/payments/cancel-subscription', { reason: 'x' })).statusCode).toBe(404);

    // Renew: any plan, full price, a new month from the payment.
    const renew = await buy(buyer, 'starter_plan', 'USD');
    expect(renew.order).toMatchObject({
      order: { amount: 999, currency: 'USD', plan: { hasGst: false, gstAmount: 0, totalAmount: 9.99 } },
      proration: null,
    });
    expect(renew.verify?.json().subscription).toMatchObject({
      planId: 'starter_plan',
      status: 'active',
      currency: 'USD',
      startDate: '2026-04-10T09:00:00.000Z',
      endDate: '2026-05-10T09:00:00.000Z',
    });
    // April's count starts from zero.
    expect((await subscriptionOf(buyer)).usage.videosThisMonth).toBe(0);
  });

  it('prices an upgrade in the currency the subscription was paid in, whatever currency the page asks for', async () => {
    clock = new Date('2026-09-01T00:00:00.000Z');
    const buyer = await signUp();
    const essentials = await buy(buyer, 'essentials_plan', 'USD');
    expect(essentials.verify?.json().subscription).toMatchObject({ currency: 'USD', endDate: '2026-10-01T00:00:00.000Z' });

    // Ten days in, the page shows INR prices (an Indian locale) and the buyer upgrades to Starter:
    // ($9.99 − $4.99) × 20/30 = $3.333… → $3.33, no GST on USD.
    advance(10);
    const order = await post(buyer, '/payments/create-order', { planId: 'starter_plan', currency: 'INR' });
    expect(order.statusCode, order.body).toBe(200);
    expect(order.json()).toMatchObject({
      order: { amount: 333, currency: 'USD', plan: { name: 'Starter', price: 3.33, hasGst: false, gstAmount: 0, totalAmount: 3.33 } },
      proration: {
        isProrated: true,
        amount: 3.33,
        breakdown: {
          calculation: '($9.99 - $4.99) × 20/30 days = $3.33',
          remainingDays: 20,
          currentPlan: 'Essentials',
          newPlan: 'Starter',
        },
      },
      requiresPayment: true,
    });
    expect(order.json().proration.description).toContain('$3.33');
    const stored = await app.db
      .selectFrom('payment_orders')
      .selectAll()
      .where('provider_order_id', '=', order.json().order.orderId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ currency: 'USD', amount: 333, kind: 'upgrade' });

    // The checkout charges, and verification expects, what the order says: dollars.
    const handler = (await post(buyer, '/payments/test-checkout/pay', { orderId: order.json().order.orderId, outcome: 'success' })).json();
    const verifyBody = {
      orderId: handler.razorpay_order_id,
      paymentId: handler.razorpay_payment_id,
      signature: handler.razorpay_signature,
      planId: 'starter_plan',
    };
    expect((await post(buyer, '/payments/verify-payment', { ...verifyBody, currency: 'INR' })).statusCode).toBe(400);
    const verified = await post(buyer, '/payments/verify-payment', { ...verifyBody, currency: 'USD' });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().subscription).toMatchObject({ planId: 'starter_plan', currency: 'USD', endDate: '2026-10-01T00:00:00.000Z' });

    // An INR subscription upgraded from a page showing USD is priced in rupees, with GST.
    const rupeeBuyer = await signUp();
    await buy(rupeeBuyer, 'essentials_plan', 'INR');
    const rupees = (await post(rupeeBuyer, '/payments/create-order', { planId: 'starter_plan', currency: 'USD' })).json();
    expect(rupees.order).toMatchObject({ currency: 'INR', plan: { price: 300, hasGst: true, gstAmount: 54, totalAmount: 354 } });
    expect(rupees.proration.breakdown.calculation).toBe('(₹499.00 - ₹199.00) × 30/30 days = ₹300.00');

    // A new plan (nothing to prorate) is still sold in the currency asked for.
    const newcomer = await signUp();
    expect((await post(newcomer, '/payments/create-order', { planId: 'starter_plan', currency: 'INR' })).json().order).toMatchObject({
      currency: 'INR',
      amount: 58_882,
    });
  });

  it('counts only the videos made since the plan started, on the display and at the limit alike', async () => {
    clock = new Date('2026-11-03T08:00:00.000Z');
    const buyer = await signUp();
    await addJob(buyer);
    advance(1);
    await buy(buyer, 'essentials_plan');
    expect((await subscriptionOf(buyer)).usage.videosThisMonth).toBe(0);
    for (let i = 0; i < 9; i += 1) await addJob(buyer);
    expect((await subscriptionOf(buyer)).usage.videosThisMonth).toBe(9);
    expect(await canGenerate(buyer, 60)).toEqual({ canGenerate: true, isFreeVideo: false, reason: null });
    await addJob(buyer);
    expect((await subscriptionOf(buyer)).usage.videosThisMonth).toBe(10);
    expect(await canGenerate(buyer, 30)).toEqual({ canGenerate: false, isFreeVideo: false, reason: MESSAGES.videoLimitReached(10) });
  });

  it('lets a cancelled plan be replaced by a lower one at full price', async () => {
    clock = new Date('2026-06-01T00:00:00.000Z');
    const buyer = await signUp();
    await buy(buyer, 'pro_plan');
    await post(buyer, '/payments/cancel-subscription', { reason: 'Too much' });
    const lower = await buy(buyer, 'essentials_plan');
    expect(lower.order).toMatchObject({ order: { amount: 23_482 }, proration: null, message: expect.stringContaining('replaced') });
    expect(lower.verify?.json().subscription).toMatchObject({
      planId: 'essentials_plan',
      status: 'active',
      endDate: '2026-07-01T00:00:00.000Z',
    });
  });

  it('activates nothing for a forged signature, a wrong plan, a payment never made, or an unpaid test checkout', async () => {
    const buyer = await signUp();
    const order = (await post(buyer, '/payments/create-order', { planId: 'pro_plan', currency: 'INR' })).json();
    const orderId = order.order.orderId as string;
    const attempts = [
      { orderId, paymentId: 'pay_forged', signature: 'a'.repeat(64), planId: 'pro_plan', currency: 'INR' },
      { orderId, paymentId: 'pay_forged', signature: 'not-hex', planId: 'pro_plan', currency: 'INR' },
      // Signed with a key the server does not have.
      {
        orderId,
        paymentId: 'pay_forged',
        signature: paymentSignature('guessed-secret', orderId, 'pay_forged'),
        planId: 'pro_plan',
        currency: 'INR',
      },
      { orderId: 'order_unknown', paymentId: 'pay_x', signature: 'a'.repeat(64), planId: 'pro_plan', currency: 'INR' },
    ];
    for (const attempt of attempts.slice(0, 3)) {
      const response = await post(buyer, '/payments/verify-payment', attempt);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: 'Invalid payment signature', field: 'signature' });
    }
    expect((await post(buyer, '/payments/verify-payment', attempts[3])).statusCode).toBe(404);
    // Correctly signed (with the server's own test secret) but for a payment that was never made.
    const { keySecret } = JSON.parse(readFileSync(join(database.dataDir, 'test-checkout-secret.json'), 'utf8'));
    const unpaid = await post(buyer, '/payments/verify-payment', {
      orderId,
      paymentId: 'pay_never_made',
      signature: paymentSignature(keySecret, orderId, 'pay_never_made'),
      planId: 'pro_plan',
      currency: 'INR',
    });
    expect(unpaid.statusCode).toBe(400);
    expect(unpaid.json().message).toBe('The payment for this order was not received');
    // A genuine signature presented for a different plan than the order's.
    const paid = (await post(buyer, '/payments/test-checkout/pay', { orderId, outcome: 'success' })).json();
    const wrongPlan = await post(buyer, '/payments/verify-payment', {
      orderId,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
      planId: 'essentials_plan',
      currency: 'INR',
    });
    expect(wrongPlan.statusCode).toBe(400);
    // A failed test payment returns no signature at all.
    const failed = await post(buyer, '/payments/test-checkout/pay', { orderId, outcome: 'failure' });
    expect(failed.statusCode).toBe(402);
    expect(failed.json()).not.toHaveProperty('razorpay_signature');
    expect((await subscriptionOf(buyer)).subscription).toBeNull();
    const row = await app.db.selectFrom('payment_orders').selectAll().where('provider_order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(row.status).toBe('created');
  });

  it('treats a replayed verification as already done and a second payment for a paid order as a conflict', async () => {
    clock = new Date('2026-07-01T00:00:00.000Z');
    const buyer = await signUp();
    const first = await buy(buyer, 'starter_plan');
    expect(first.verify?.statusCode).toBe(200);
    const replayBody = {
      orderId: first.handler.razorpay_order_id,
      paymentId: first.handler.razorpay_payment_id,
      signature: first.handler.razorpay_signature,
      planId: 'starter_plan',
      currency: 'INR',
    };
    // A month later the replay must not start a new period.
    clock = new Date('2026-07-20T00:00:00.000Z');
    const replay = await post(buyer, '/payments/verify-payment', replayBody);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().subscription).toMatchObject({ startDate: '2026-07-01T00:00:00.000Z', endDate: '2026-08-01T00:00:00.000Z' });
    // The order cannot be paid again through the test checkout either.
    expect((await post(buyer, '/payments/test-checkout/pay', { orderId: replayBody.orderId, outcome: 'success' })).statusCode).toBe(409);
    const orders = await app.db.selectFrom('payment_orders').selectAll().where('user_id', '=', buyer.userId).execute();
    expect(orders.map((o) => o.status)).toEqual(['paid']);
  });

  it("refuses to verify or pay another user's order", async () => {
    const owner = await signUp();
    const thief = await signUp();
    const order = (await post(owner, '/payments/create-order', { planId: 'basic_plan', currency: 'USD' })).json();
    expect((await post(thief, '/payments/test-checkout/pay', { orderId: order.order.orderId, outcome: 'success' })).statusCode).toBe(404);
    const paid = (await post(owner, '/payments/test-checkout/pay', { orderId: order.order.orderId, outcome: 'success' })).json();
    const stolen = await post(thief, '/payments/verify-payment', {
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
      planId: 'basic_plan',
      currency: 'USD',
    });
    expect(stolen.statusCode).toBe(404);
    expect((await subscriptionOf(thief)).subscription).toBeNull();
    expect((await subscriptionOf(owner)).subscription).toBeNull();
  });

  it('needs a bearer token for subscription, orders and verification', async () => {
    const verifyBody = { orderId: 'order_x', paymentId: 'pay_x', signature: 'a'.repeat(64), planId: 'pro_plan', currency: 'INR' };
    for (const [method, url, payload] of [
      ['GET', '/payments/subscription', undefined],
      ['GET', '/payments/can-generate', undefined],
      ['POST', '/payments/create-order', { planId: 'pro_plan', currency: 'INR' }],
      ['POST', '/payments/verify-payment', verifyBody],
      ['POST', '/payments/cancel-subscription', { reason: 'x' }],
      ['POST', '/payments/test-checkout/pay', { orderId: 'order_x', outcome: 'success' }],
    ] as const) {
      expect((await app.inject({ method, url, ...(payload ? { payload } : {}) })).statusCode).toBe(401);
    }
  });

  describe('webhook', () => {
    const capturedEvent = (orderId: string, paymentId: string, amount: number, currency = 'INR') =>
      JSON.stringify({
        entity: 'event',
        event: 'payment.captured',
        payload: { payment: { entity: { id: paymentId, order_id: orderId, amount, currency, status: 'captured' } } },
      });
    const deliver = (body: string, signature: string) =>
      app.inject({
        method: 'POST',
        url: '/payments/webhook',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature },
        payload: body,
      });

    it('activates the plan from a signed payment.captured event, once, and agrees with a later verify-payment', async () => {
      clock = new Date('2026-08-01T00:00:00.000Z');
      const buyer = await signUp();
      const order = (await post(buyer, '/payments/create-order', { planId: 'starter_plan', currency: 'INR' })).json();
      const handler = (await post(buyer, '/payments/test-checkout/pay', { orderId: order.order.orderId, outcome: 'success' })).json();
      // Key order and spacing are kept: the signature covers the exact bytes.
      const body = capturedEvent(order.order.orderId, handler.razorpay_payment_id, order.order.amount).replace('{', '{ ');
      const signature = hmacSha256Hex(WEBHOOK_SECRET, body);
      const first = await deliver(body, signature);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual({ received: true, handled: true });
      expect((await subscriptionOf(buyer)).subscription).toMatchObject({ planId: 'starter_plan', status: 'active' });

      clock = new Date('2026-08-05T00:00:00.000Z');
      expect((await deliver(body, signature)).json()).toEqual({ received: true, handled: true });
      const verify = await post(buyer, '/payments/verify-payment', {
        orderId: handler.razorpay_order_id,
        paymentId: handler.razorpay_payment_id,
        signature: handler.razorpay_signature,
        planId: 'starter_plan',
        currency: 'INR',
      });
      expect(verify.statusCode).toBe(200);
      expect(verify.json().subscription).toMatchObject({ startDate: '2026-08-01T00:00:00.000Z' });
    });

    it('rejects a bad signature and ignores a captured amount that differs from the order', async () => {
      const buyer = await signUp();
      const order = (await post(buyer, '/payments/create-order', { planId: 'pro_plan', currency: 'INR' })).json();
      const body = capturedEvent(order.order.orderId, 'pay_webhook_1', order.order.amount);
      expect((await deliver(body, hmacSha256Hex('wrong-secret', body))).statusCode).toBe(400);
      expect((await deliver(body, hmacSha256Hex(WEBHOOK_SECRET, `${body} `))).statusCode).toBe(400);
      const cheap = capturedEvent(order.order.orderId, 'pay_webhook_2', 100);
      expect((await deliver(cheap, hmacSha256Hex(WEBHOOK_SECRET, cheap))).json()).toEqual({ received: true, handled: false });
      expect((await subscriptionOf(buyer)).subscription).toBeNull();
      const other = JSON.stringify({ event: 'payment.failed', payload: {} });
      expect((await deliver(other, hmacSha256Hex(WEBHOOK_SECRET, other))).json()).toEqual({ received: true, handled: false });
    });

    it('leaves JSON parsing of other routes untouched', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'nobody@example.com', password: 'whatever1' },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('location pricing', () => {
    it('prices India in INR and elsewhere in USD; an unknown address gives success false', async () => {
      const india = await app.inject({ method: 'GET', url: '/extension-api/location/pricing', remoteAddress: '49.36.0.1' });
      expect(india.json()).toEqual({ success: true, pricing: { currency: 'INR' }, location: { country: 'India', countryCode: 'IN' } });
      const us = await app.inject({ method: 'GET', url: '/extension-api/location/pricing', remoteAddress: '8.8.8.8' });
      expect(us.json()).toEqual({ success: true, pricing: { currency: 'USD' }, location: { country: 'United States', countryCode: 'US' } });
      const local = await app.inject({ method: 'GET', url: '/extension-api/location/pricing', remoteAddress: '127.0.0.1' });
      expect(local.json()).toEqual({ success: false, pricing: { currency: 'USD' }, location: { country: 'Unknown', countryCode: 'XX' } });
    });
  });
});

describe('location pricing from a trusted proxy header and the bundled GeoIP data', () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ GEO_COUNTRY_HEADER: 'CF-IPCountry' }), quiet);
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('uses the header when present and valid', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/extension-api/location/pricing',
      headers: { 'cf-ipcountry': 'in' },
      remoteAddress: '8.8.8.8',
    });
    expect(response.json()).toMatchObject({ success: true, pricing: { currency: 'INR' }, location: { countryCode: 'IN' } });
  });

  it('falls back to the GeoIP database for a missing or meaningless header', async () => {
    const tor = await app.inject({
      method: 'GET',
      url: '/extension-api/location/pricing',
      headers: { 'cf-ipcountry': 'T1' },
      remoteAddress: '49.36.0.1',
    });
    expect(tor.json()).toMatchObject({ success: true, location: { countryCode: 'IN' } });
    const us = await app.inject({ method: 'GET', url: '/extension-api/location/pricing', remoteAddress: '8.8.8.8' });
    expect(us.json()).toMatchObject({ success: true, pricing: { currency: 'USD' }, location: { countryCode: 'US' } });
  });
});

describe('concurrent settlement', () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET }), quiet);
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('activates once when verify-payment and the webhook arrive together', async () => {
    const registered = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Parallel Buyer', email: `parallel-${randomUUID().slice(0, 8)}@example.com`, password: 'long-enough-password' },
    });
    const headers = { authorization: `Bearer ${registered.json().token}` };
    const order = (
      await app.inject({ method: 'POST', url: '/payments/create-order', headers, payload: { planId: 'basic_plan', currency: 'INR' } })
    ).json();
    const paid = (
      await app.inject({
        method: 'POST',
        url: '/payments/test-checkout/pay',
        headers,
        payload: { orderId: order.order.orderId, outcome: 'success' },
      })
    ).json();
    const verifyBody = {
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
      planId: 'basic_plan',
      currency: 'INR',
    };
    const event = JSON.stringify({
      event: 'payment.captured',
      payload: {
        payment: {
          entity: {
            id: paid.razorpay_payment_id,
            order_id: paid.razorpay_order_id,
            amount: order.order.amount,
            currency: 'INR',
            status: 'captured',
          },
        },
      },
    });
    const responses = await Promise.all([
      ...Array.from({ length: 4 }, () => app.inject({ method: 'POST', url: '/payments/verify-payment', headers, payload: verifyBody })),
      app.inject({
        method: 'POST',
        url: '/payments/webhook',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': hmacSha256Hex(WEBHOOK_SECRET, event) },
        payload: event,
      }),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const orders = await app.db.selectFrom('payment_orders').selectAll().where('provider_order_id', '=', order.order.orderId).execute();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', provider_payment_id: paid.razorpay_payment_id });
    const subscriptions = await app.db.selectFrom('subscriptions').selectAll().execute();
    expect(subscriptions.filter((s) => s.last_order_id === orders[0]!.id)).toHaveLength(1);
  });
});
