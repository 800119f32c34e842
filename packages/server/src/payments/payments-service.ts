import {
  MESSAGES,
  type CanGenerateResponse,
  type Currency,
  type OrderResponse,
  type PaymentHandlerResult,
  type PlanId,
  type PlansResponse,
  type Subscription,
  type SubscriptionResponse,
  type VerifyPaymentBody,
} from '@reelsmith/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Database, PaymentOrderRow } from '../db/schema.js';
import { badRequest, conflict, HttpError, notFound } from '../errors.js';
import { checkCanGenerate } from './can-generate.js';
import { PAID_PAYMENT_STATUSES, PaymentProviderError, type PaymentGateway } from './payment-gateway.js';
import { getPlan, hasGst, planRank, PLANS, priceWithTax, toMajor } from './plans.js';
import { addUtcMonths, prorateUpgrade, toApiPlan } from './pricing.js';
import { countPlanVideosThisMonth, effectiveStatus, findSubscription, grantsAccess } from './subscription-state.js';
import { toSubscriptionView } from './subscription-view.js';
import { isValidWebhookSignature } from './signatures.js';
import type { TestCheckoutGateway } from './test-checkout-gateway.js';

/** Server-side texts of the payment routes that the spec does not word itself. */
export const PAYMENT_MESSAGES = {
  orderNotFound: 'Order not found',
  orderMismatch: 'The payment does not match this order',
  invalidSignature: 'Invalid payment signature',
  paymentNotCaptured: 'The payment for this order was not received',
  orderAlreadyPaid: 'This order has already been paid',
  noSubscriptionToCancel: 'You have no active subscription to cancel',
  alreadyCancelled: 'Your subscription is already cancelled',
  reactivated: (plan: string, until: string) => `Your ${plan} plan is active again until ${until}. No payment is needed.`,
  replacesCancelled: (current: string, next: string) =>
    `Your cancelled ${current} plan will be replaced by ${next} as soon as the payment succeeds.`,
  webhookNotConfigured: 'Payment webhook is not configured',
  invalidWebhookSignature: 'Invalid webhook signature',
  testPaymentFailed: 'TEST MODE: the payment failed as chosen. No money was taken.',
  testCheckoutOnly: 'The test checkout is only available in TEST MODE',
  orderNotPayable: 'This order cannot be paid any more',
} as const;

const capturedEventSchema = z.object({
  event: z.string(),
  payload: z
    .object({
      payment: z
        .object({
          entity: z.object({
            id: z.string(),
            order_id: z.string().nullable(),
            amount: z.number().int(),
            currency: z.string(),
            status: z.string(),
          }),
        })
        .optional(),
    })
    .optional(),
});

export interface PaymentsServiceOptions {
  db: Kysely<Database>;
  gateway: PaymentGateway;
  /** The clock every rule reads; tests move it to expire subscriptions. */
  now: () => Date;
  log: FastifyBaseLogger;
  webhookSecret: string | null;
}

/**
 * A subscription date as every billing screen shows it ("Dec 23, 2026"), read in UTC: the server
 * knows no viewer's time zone (the studio words its own toast with the viewer's local date).
 */
const untilDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });

export class PaymentsService {
  readonly #db: Kysely<Database>;
  readonly #gateway: PaymentGateway;
  readonly #now: () => Date;
  readonly #log: FastifyBaseLogger;
  readonly #webhookSecret: string | null;

  constructor(options: PaymentsServiceOptions) {
    this.#db = options.db;
    this.#gateway = options.gateway;
    this.#now = options.now;
    this.#log = options.log;
    this.#webhookSecret = options.webhookSecret;
  }

  get checkoutMode(): PaymentGateway['mode'] {
    return this.#gateway.mode;
  }

  plans(currency: Currency): PlansResponse {
    return { currency, plans: PLANS.map((plan) => toApiPlan(plan, currency)) };
  }

  async subscription(userId: string): Promise<SubscriptionResponse> {
    const now = this.#now();
    const row = await findSubscription(this.#db, userId);
    return {
      subscription: row ? toSubscriptionView(row, now) : null,
      // The very count checkCanGenerate limits, so the studio's 'N / limit' always agrees with it.
      usage: { videosThisMonth: await countPlanVideosThisMonth(this.#db, userId, row, now) },
    };
  }

  canGenerate(userId: string, duration: number | undefined): Promise<CanGenerateResponse> {
    return checkCanGenerate(this.#db, userId, duration, this.#now());
  }

  async #currentView(userId: string, db: Kysely<Database> = this.#db): Promise<Subscription | null> {
    const row = await findSubscription(db, userId);
    return row ? toSubscriptionView(row, this.#now()) : null;
  }

  /**
   * Prices the change from the user's current subscription to `planId` and opens a provider order:
   * a full month for a first, renewed or replaced plan, in the currency asked for; the prorated
   * difference for an upgrade of a plan still in effect, always in the currency that plan was paid
   * in (the page may be showing another one). Re-choosing the active plan or a lower one while
   * active is refused; re-choosing a cancelled plan still in effect reactivates it with nothing to pay.
   */
  async createOrder(userId: string, planId: PlanId, requestedCurrency: Currency): Promise<OrderResponse> {
    const now = this.#now();
    const plan = getPlan(planId);
    const current = await findSubscription(this.#db, userId);
    const base = { razorpayKeyId: this.#gateway.publicKeyId, checkoutMode: this.#gateway.mode };

    let kind: PaymentOrderRow['kind'] = 'new';
    let currency = requestedCurrency;
    let amount = plan.prices[currency];
    let periodEnd: string | null = null;
    let proration: OrderResponse['proration'] = null;
    let message: string | null = null;

    if (current && grantsAccess(current, now)) {
      const status = effectiveStatus(current, now);
      const currentPlan = getPlan(current.plan_id);
      if (current.plan_id === planId) {
        if (status === 'active') throw badRequest(MESSAGES.currentPlanChosen, 'planId');
        await this.#db
          .updateTable('subscriptions')
          .set({ status: 'active', cancelled_at: null, cancellation_reason: null, updated_at: now.toISOString() })
          .where('id', '=', current.id)
          .execute();
        return {
          ...base,
          order: null,
          proration: null,
          requiresPayment: false,
          message: PAYMENT_MESSAGES.reactivated(plan.name, untilDate(current.end_date)),
        };
      }
      if (planRank(planId) < planRank(current.plan_id)) {
        if (status === 'active') throw conflict(MESSAGES.downgradeNotAllowed, 'planId');
        kind = 'change';
        message = PAYMENT_MESSAGES.replacesCancelled(currentPlan.name, plan.name);
      } else {
        // The difference between two prices is only meaningful in one currency: the one already paid.
        currency = current.currency;
        const prorated = prorateUpgrade(
          current.plan_id,
          planId,
          currency,
          { start: new Date(current.start_date), end: new Date(current.end_date) },
          now,
        );
        kind = 'upgrade';
        amount = prorated.amount;
        periodEnd = current.end_date;
        proration = {
          isProrated: true,
          description: prorated.description,
          amount: toMajor(prorated.amount),
          breakdown: {
            calculation: prorated.calculation,
            remainingDays: prorated.remainingDays,
            currentPlan: prorated.currentPlan,
            newPlan: prorated.newPlan,
          },
        };
      }
    }

    const price = priceWithTax(amount, currency);
    const id = randomUUID();
    let providerOrderId: string;
    try {
      ({ id: providerOrderId } = await this.#gateway.createOrder({
        amount: price.total,
        currency,
        receipt: id,
        notes: { userId, planId, kind },
      }));
    } catch (error) {
      if (error instanceof PaymentProviderError) {
        this.#log.error(
          { provider: this.#gateway.mode, code: error.code, status: error.statusCode, reason: error.message },
          'payment order creation failed',
        );
        throw new HttpError(502, MESSAGES.orderFailed);
      }
      throw error;
    }
    await this.#db
      .insertInto('payment_orders')
      .values({
        id,
        user_id: userId,
        plan_id: planId,
        currency,
        amount: price.total,
        kind,
        period_end: periodEnd,
        status: 'created',
        provider_order_id: providerOrderId,
        provider: this.#gateway.mode,
        provider_payment_id: null,
        created_at: now.toISOString(),
        paid_at: null,
      })
      .execute();

    return {
      ...base,
      order: {
        orderId: providerOrderId,
        amount: price.total,
        currency,
        plan: {
          name: plan.name,
          price: toMajor(price.base),
          hasGst: hasGst(currency),
          gstAmount: toMajor(price.gst),
          totalAmount: toMajor(price.total),
        },
      },
      proration,
      requiresPayment: true,
      message,
    };
  }

  async #orderForUser(userId: string, providerOrderId: string): Promise<PaymentOrderRow> {
    const order = await this.#db
      .selectFrom('payment_orders')
      .selectAll()
      .where('provider_order_id', '=', providerOrderId)
      .executeTakeFirst();
    // Someone else's order reads as missing: its existence is not this user's business.
    if (!order || order.user_id !== userId) throw notFound(PAYMENT_MESSAGES.orderNotFound);
    return order;
  }

  /**
   * Activates the plan an order paid for, once: the order moves from 'created' to 'paid' in the same
   * transaction, so a replay, a second tab or the webhook racing the browser all find it taken.
   */
  async #settle(order: PaymentOrderRow, paymentId: string): Promise<boolean> {
    const now = this.#now();
    const at = now.toISOString();
    return this.#db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('payment_orders')
        .set({ status: 'paid', provider_payment_id: paymentId, paid_at: at })
        .where('id', '=', order.id)
        .where('status', '=', 'created')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      await this.#applyOrder(trx, order, now);
      return true;
    });
  }

  async #applyOrder(trx: Transaction<Database>, order: PaymentOrderRow, now: Date): Promise<void> {
    const at = now.toISOString();
    const existing = await findSubscription(trx, order.user_id);
    // An upgrade keeps the period it was priced for; anything else starts a fresh month at payment.
    const upgrade = order.kind === 'upgrade' && order.period_end !== null && existing !== undefined;
    const startDate = upgrade ? existing.start_date : at;
    const endDate = upgrade ? order.period_end! : addUtcMonths(now, 1).toISOString();
    const values = {
      plan_id: order.plan_id,
      currency: order.currency,
      status: 'active' as const,
      start_date: startDate,
      end_date: endDate,
      cancelled_at: null,
      cancellation_reason: null,
      last_order_id: order.id,
      updated_at: at,
    };
    await trx
      .insertInto('subscriptions')
      .values({ id: randomUUID(), user_id: order.user_id, created_at: at, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  }

  /**
   * POST /payments/verify-payment: the checkout's signed result. Nothing is activated unless the
   * order is the caller's, matches the plan and currency, carries a valid signature, and the
   * provider holds a payment of exactly the order's amount for it.
   */
  async verifyPayment(userId: string, body: VerifyPaymentBody): Promise<{ success: true; subscription: Subscription | null }> {
    const order = await this.#orderForUser(userId, body.orderId);
    if (order.plan_id !== body.planId || order.currency !== body.currency) throw badRequest(PAYMENT_MESSAGES.orderMismatch);
    if (!this.#gateway.isValidPaymentSignature(order.provider_order_id, body.paymentId, body.signature)) {
      throw badRequest(PAYMENT_MESSAGES.invalidSignature, 'signature');
    }
    if (order.status === 'paid') return this.#alreadySettled(order, body.paymentId);

    const payment = await this.#gateway.fetchPayment(body.paymentId);
    if (
      !payment ||
      payment.orderId !== order.provider_order_id ||
      payment.amount !== order.amount ||
      payment.currency !== order.currency ||
      !PAID_PAYMENT_STATUSES.has(payment.status)
    ) {
      throw badRequest(PAYMENT_MESSAGES.paymentNotCaptured);
    }
    if (!(await this.#settle(order, body.paymentId))) {
      const fresh = await this.#orderForUser(userId, body.orderId);
      return this.#alreadySettled(fresh, body.paymentId);
    }
    this.#log.info({ orderId: order.id, planId: order.plan_id, kind: order.kind }, 'subscription payment verified');
    return { success: true, subscription: await this.#currentView(userId) };
  }

  /** The same payment verified twice (a retry, or after the webhook) succeeds without activating anything again. */
  async #alreadySettled(order: PaymentOrderRow, paymentId: string): Promise<{ success: true; subscription: Subscription | null }> {
    if (order.status !== 'paid' || order.provider_payment_id !== paymentId) throw conflict(PAYMENT_MESSAGES.orderAlreadyPaid);
    return { success: true, subscription: await this.#currentView(order.user_id) };
  }

  async cancel(userId: string, reason: string): Promise<{ success: true; message: string; subscription: Subscription }> {
    const now = this.#now();
    const current = await findSubscription(this.#db, userId);
    const status = current ? effectiveStatus(current, now) : null;
    if (!current || status === 'expired') throw notFound(PAYMENT_MESSAGES.noSubscriptionToCancel);
    if (status === 'cancelled') throw conflict(PAYMENT_MESSAGES.alreadyCancelled);
    const at = now.toISOString();
    await this.#db
      .updateTable('subscriptions')
      .set({ status: 'cancelled', cancelled_at: at, cancellation_reason: reason, updated_at: at })
      .where('id', '=', current.id)
      .where('status', '=', 'active')
      .execute();
    const subscription = await this.#currentView(userId);
    return { success: true, message: MESSAGES.subscriptionCancelled, subscription: subscription! };
  }

  /** TEST MODE only: what the in-page checkout's buttons do. */
  async testCheckoutPay(
    userId: string,
    orderId: string,
    outcome: 'success' | 'failure',
    gateway: TestCheckoutGateway,
  ): Promise<PaymentHandlerResult> {
    const order = await this.#orderForUser(userId, orderId);
    if (order.status !== 'created') throw conflict(PAYMENT_MESSAGES.orderNotPayable);
    const stored = { providerOrderId: order.provider_order_id, amount: order.amount, currency: order.currency };
    if (outcome === 'failure') {
      gateway.fail(stored);
      throw new HttpError(402, PAYMENT_MESSAGES.testPaymentFailed);
    }
    const { paymentId, signature } = gateway.pay(stored);
    return { razorpay_payment_id: paymentId, razorpay_order_id: order.provider_order_id, razorpay_signature: signature };
  }

  /**
   * Razorpay's payment.captured webhook: the server-to-server confirmation that activates the plan
   * even when the buyer's browser never comes back. Shares #settle with verify-payment, so whichever
   * arrives second changes nothing.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ received: true; handled: boolean }> {
    // Logged once at start-up (payments plugin); each anonymous call is answered quietly.
    if (!this.#webhookSecret) throw new HttpError(503, PAYMENT_MESSAGES.webhookNotConfigured, undefined, { quiet: true });
    if (!signature || !isValidWebhookSignature(this.#webhookSecret, rawBody, signature))
      throw badRequest(PAYMENT_MESSAGES.invalidWebhookSignature);
    let event: z.infer<typeof capturedEventSchema>;
    try {
      event = capturedEventSchema.parse(JSON.parse(rawBody.toString('utf8')));
    } catch {
      throw badRequest('The webhook body is not a Razorpay event');
    }
    const payment = event.payload?.payment?.entity;
    if (event.event !== 'payment.captured' || !payment?.order_id) return { received: true, handled: false };

    const order = await this.#db
      .selectFrom('payment_orders')
      .selectAll()
      .where('provider_order_id', '=', payment.order_id)
      .executeTakeFirst();
    if (!order) return { received: true, handled: false };
    if (payment.amount !== order.amount || payment.currency !== order.currency) {
      this.#log.warn(
        { orderId: order.id, amount: payment.amount, expected: order.amount },
        'captured payment does not match its order; nothing activated',
      );
      return { received: true, handled: false };
    }
    if (order.status === 'paid') return { received: true, handled: order.provider_payment_id === payment.id };
    const settled = await this.#settle(order, payment.id);
    if (settled) this.#log.info({ orderId: order.id, planId: order.plan_id, kind: order.kind }, 'subscription payment captured (webhook)');
    return { received: true, handled: true };
  }
}
