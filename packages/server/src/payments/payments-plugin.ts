import { API, PAYMENTS_NOT_CONFIGURED_MESSAGE } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { registerRoute } from '../http/register-route.js';
import { HttpError, notFound } from '../errors.js';
import { perUserPerMinute } from '../http/rate-limit-keys.js';
import { createMmdbCountryLookup, resolveLocationPricing, type CountryLookup } from './location-pricing.js';
import type { PaymentGateway } from './payment-gateway.js';
import { PaymentsService, PAYMENT_MESSAGES } from './payments-service.js';
import { RazorpayGateway } from './razorpay-gateway.js';
import { loadOrCreateTestCheckoutSecret, TestCheckoutGateway } from './test-checkout-gateway.js';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentsService;
  }
}

export interface PaymentsPluginOptions {
  /** Replaces the gateway chosen from the config (Razorpay keys → Razorpay, else the test checkout). */
  gateway?: PaymentGateway;
  /** The clock of every subscription rule; tests move it forward to expire plans. */
  now?: () => Date;
  countryLookup?: CountryLookup;
}

/** Webhook bodies are small JSON events; anything larger is not Razorpay's. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** Plans, subscriptions, orders, payment verification, the Razorpay webhook and location pricing. */
export const paymentsPlugin = fp<PaymentsPluginOptions>(
  async (app, options) => {
    const { config } = app;
    const gateway: PaymentGateway =
      options.gateway ??
      (config.razorpay
        ? new RazorpayGateway(config.razorpay)
        : new TestCheckoutGateway(loadOrCreateTestCheckoutSecret(config.paths.dataDir)));
    const service = new PaymentsService({
      db: app.db,
      gateway,
      now: options.now ?? (() => new Date()),
      log: app.log.child({ module: 'payments' }),
      webhookSecret: config.razorpayWebhookSecret,
    });
    app.decorate('payments', service);
    // Without Razorpay keys the built-in checkout activates plans for free: fine on a developer's
    // machine, never silently in production, where it needs PAYMENTS_TEST_CHECKOUT=true on purpose.
    const paymentsConfigured = gateway.mode !== 'test' || config.testCheckoutAllowed;
    if (gateway.mode === 'test' && !options.gateway) {
      if (paymentsConfigured) app.log.warn('payments in TEST MODE: no Razorpay keys, so every plan can be activated without paying');
      else
        app.log.warn(
          'payments are off: NODE_ENV=production without Razorpay keys (set PAYMENTS_TEST_CHECKOUT=true to allow the test checkout)',
        );
    } else {
      app.log.info({ checkoutMode: gateway.mode }, 'payments through Razorpay');
    }
    if (!config.razorpayWebhookSecret) app.log.warn('POST /payments/webhook answers 503: RAZORPAY_WEBHOOK_SECRET is not set');
    const requirePayments = async () => {
      if (!paymentsConfigured) throw new HttpError(503, PAYMENTS_NOT_CONFIGURED_MESSAGE);
    };

    registerRoute(app, API.plans, async (request) => ({ ...service.plans(request.query.currency), paymentsConfigured }));
    registerRoute(app, API.subscription, async (request) => service.subscription(request.user.id));
    registerRoute(app, API.canGenerate, async (request) => service.canGenerate(request.user.id, request.query.duration));
    const limitOrders = app.createRateLimiter(perUserPerMinute('payments-orders', 30));
    registerRoute(
      app,
      API.createOrder,
      async (request) => service.createOrder(request.user.id, request.body.planId, request.body.currency),
      {
        preHandler: [limitOrders, requirePayments],
      },
    );
    registerRoute(app, API.verifyPayment, async (request) => service.verifyPayment(request.user.id, request.body), {
      preHandler: [limitOrders, requirePayments],
    });
    registerRoute(app, API.cancelSubscription, async (request) => service.cancel(request.user.id, request.body.reason));

    registerRoute(app, API.testCheckoutPay, async (request) => {
      if (!(gateway instanceof TestCheckoutGateway)) throw notFound(PAYMENT_MESSAGES.testCheckoutOnly);
      await requirePayments();
      return service.testCheckoutPay(request.user.id, request.body.orderId, request.body.outcome, gateway);
    });

    // The webhook's signature covers the exact bytes sent, so this one route keeps the raw body;
    // the parser lives in its own encapsulated scope and leaves every other route's JSON parsing alone.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      registerRoute(
        scope,
        API.paymentWebhook,
        async (request) => {
          const header = request.headers['x-razorpay-signature'];
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          return service.handleWebhook(body, Array.isArray(header) ? header[0] : header);
        },
        { bodyLimit: WEBHOOK_BODY_LIMIT },
      );
    });

    const lookup = options.countryLookup ?? createMmdbCountryLookup();
    const headerName = config.geoCountryHeader;
    registerRoute(app, API.locationPricing, async (request) => {
      const raw = headerName ? request.headers[headerName] : undefined;
      return resolveLocationPricing({ headerValue: (Array.isArray(raw) ? raw[0] : raw) ?? null, ip: request.ip }, lookup);
    });
  },
  { name: 'payments', fastify: '5.x', dependencies: ['config', 'database', 'rate-limit'] },
);
