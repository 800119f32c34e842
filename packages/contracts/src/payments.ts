import { z } from './zod.js';
import { currencySchema, planIdSchema, subscriptionStatusSchema } from './enums.js';
import { VALIDATION_MESSAGES as V } from './messages.js';

export const planSchema = z.object({
  id: planIdSchema,
  name: z.string(),
  price: z.number(),
  currency: currencySchema,
  videoLimit: z.number().check(z.int()),
  features: z.array(z.string()),
  hasGst: z.boolean(),
  gstAmount: z.number(),
  totalAmount: z.number(),
});
export type Plan = z.infer<typeof planSchema>;

export const plansQuerySchema = z.object({ currency: z._default(currencySchema, 'INR') });
export const plansResponseSchema = z.object({
  currency: currencySchema,
  plans: z.array(planSchema),
  /** False when this server takes no payments (production without Razorpay keys): plans are shown, not sold. */
  paymentsConfigured: z.optional(z.boolean()),
});
/** The pricing page's words when the server takes no payments, and POST /payments/create-order's 503. */
export const PAYMENTS_NOT_CONFIGURED_MESSAGE = 'Payments are not configured on this server yet, so plans cannot be bought right now.';
export type PlansResponse = z.infer<typeof plansResponseSchema>;

export const subscriptionSchema = z.object({
  planId: planIdSchema,
  planName: z.string(),
  status: subscriptionStatusSchema,
  cancelled_at: z.nullable(z.string()),
  cancelledAt: z.nullable(z.string()),
  startDate: z.string(),
  endDate: z.string(),
  videoLimit: z.number().check(z.int()),
  currency: currencySchema,
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionResponseSchema = z.object({
  subscription: z.nullable(subscriptionSchema),
  usage: z.object({ videosThisMonth: z.number().check(z.int()) }),
});
export type SubscriptionResponse = z.infer<typeof subscriptionResponseSchema>;

export const canGenerateQuerySchema = z.object({
  duration: z.optional(z.coerce.number().check(z.int())),
});
export const canGenerateResponseSchema = z.object({
  canGenerate: z.boolean(),
  isFreeVideo: z.boolean(),
  reason: z.nullable(z.string()),
});
export type CanGenerateResponse = z.infer<typeof canGenerateResponseSchema>;

export const createOrderBodySchema = z.object({ planId: planIdSchema, currency: currencySchema });
export type CreateOrderBody = z.infer<typeof createOrderBodySchema>;

export const orderResponseSchema = z.object({
  order: z.nullable(
    z.object({
      orderId: z.string(),
      amount: z.number().check(z.int()),
      currency: currencySchema,
      plan: z.object({
        name: z.string(),
        price: z.number(),
        hasGst: z.boolean(),
        gstAmount: z.number(),
        totalAmount: z.number(),
      }),
    }),
  ),
  razorpayKeyId: z.nullable(z.string()),
  checkoutMode: z.enum(['razorpay', 'test']),
  proration: z.nullable(
    z.object({
      isProrated: z.boolean(),
      description: z.string(),
      amount: z.number(),
      breakdown: z.object({
        calculation: z.string(),
        remainingDays: z.number().check(z.int()),
        currentPlan: z.string(),
        newPlan: z.string(),
      }),
    }),
  ),
  requiresPayment: z.boolean(),
  message: z.nullable(z.string()),
});
export type OrderResponse = z.infer<typeof orderResponseSchema>;

export const verifyPaymentBodySchema = z.object({
  orderId: z.string().check(z.minLength(1, 'orderId is required')),
  paymentId: z.string().check(z.minLength(1, 'paymentId is required')),
  signature: z.string().check(z.minLength(1, 'signature is required')),
  planId: planIdSchema,
  currency: currencySchema,
});
export type VerifyPaymentBody = z.infer<typeof verifyPaymentBodySchema>;

export const verifyPaymentResponseSchema = z.object({ success: z.boolean(), subscription: z.nullable(subscriptionSchema) });

export const cancelSubscriptionBodySchema = z.object({
  reason: z
    .string({ error: V.cancellationReasonRequired })
    .check(z.trim(), z.minLength(1, V.cancellationReasonRequired), z.maxLength(1000)),
});
export const cancelSubscriptionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: subscriptionSchema,
});

/** The payment handler result the checkout gives back (Razorpay's field names). */
export const paymentHandlerResultSchema = z.object({
  razorpay_payment_id: z.string(),
  razorpay_order_id: z.string(),
  razorpay_signature: z.string(),
});

export const locationPricingResponseSchema = z.object({
  success: z.boolean(),
  pricing: z.object({ currency: currencySchema }),
  location: z.object({ country: z.string(), countryCode: z.string() }),
});
export type LocationPricingResponse = z.infer<typeof locationPricingResponseSchema>;

/** TEST MODE checkout only (no Razorpay keys configured): the tester's choice in the in-page checkout. */
export const testCheckoutPayBodySchema = z.object({
  orderId: z.string().check(z.minLength(1, 'orderId is required')),
  outcome: z.enum(['success', 'failure']),
});
export type TestCheckoutPayBody = z.infer<typeof testCheckoutPayBodySchema>;
export type PaymentHandlerResult = z.infer<typeof paymentHandlerResultSchema>;

/** Razorpay webhook acknowledgement; `handled` is false for events and orders this product ignores. */
export const paymentWebhookResponseSchema = z.object({ received: z.literal(true), handled: z.boolean() });
