import { z } from 'zod';
import { currencySchema, planIdSchema, subscriptionStatusSchema } from './enums.js';
import { VALIDATION_MESSAGES as V } from './messages.js';

export const planSchema = z.object({
  id: planIdSchema,
  name: z.string(),
  price: z.number(),
  currency: currencySchema,
  videoLimit: z.number().int(),
  features: z.array(z.string()),
  hasGst: z.boolean(),
  gstAmount: z.number(),
  totalAmount: z.number(),
});
export type Plan = z.infer<typeof planSchema>;

export const plansQuerySchema = z.object({ currency: currencySchema.default('INR') });
export const plansResponseSchema = z.object({
  currency: currencySchema,
  plans: z.array(planSchema),
  /** False when this server takes no payments (production without Razorpay keys): plans are shown, not sold. */
  paymentsConfigured: z.boolean().optional(),
});
/** The pricing page's words when the server takes no payments, and POST /payments/create-order's 503. */
export const PAYMENTS_NOT_CONFIGURED_MESSAGE = 'Payments are not configured on this server yet, so plans cannot be bought right now.';
export type PlansResponse = z.infer<typeof plansResponseSchema>;

export const subscriptionSchema = z.object({
  planId: planIdSchema,
  planName: z.string(),
  status: subscriptionStatusSchema,
  cancelled_at: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  startDate: z.string(),
  endDate: z.string(),
  videoLimit: z.number().int(),
  currency: currencySchema,
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionResponseSchema = z.object({
  subscription: subscriptionSchema.nullable(),
  usage: z.object({ videosThisMonth: z.number().int() }),
});
export type SubscriptionResponse = z.infer<typeof subscriptionResponseSchema>;

export const canGenerateQuerySchema = z.object({
  duration: z.coerce.number().int().optional(),
});
export const canGenerateResponseSchema = z.object({
  canGenerate: z.boolean(),
  isFreeVideo: z.boolean(),
  reason: z.string().nullable(),
});
export type CanGenerateResponse = z.infer<typeof canGenerateResponseSchema>;

export const createOrderBodySchema = z.object({ planId: planIdSchema, currency: currencySchema });
export type CreateOrderBody = z.infer<typeof createOrderBodySchema>;

export const orderResponseSchema = z.object({
  order: z
    .object({
      orderId: z.string(),
      amount: z.number().int(),
      currency: currencySchema,
      plan: z.object({
        name: z.string(),
        price: z.number(),
        hasGst: z.boolean(),
        gstAmount: z.number(),
        totalAmount: z.number(),
      }),
    })
    .nullable(),
  razorpayKeyId: z.string().nullable(),
  checkoutMode: z.enum(['razorpay', 'test']),
  proration: z
    .object({
      isProrated: z.boolean(),
      description: z.string(),
      amount: z.number(),
      breakdown: z.object({
        calculation: z.string(),
        remainingDays: z.number().int(),
        currentPlan: z.string(),
        newPlan: z.string(),
      }),
    })
    .nullable(),
  requiresPayment: z.boolean(),
  message: z.string().nullable(),
});
export type OrderResponse = z.infer<typeof orderResponseSchema>;

export const verifyPaymentBodySchema = z.object({
  orderId: z.string().min(1, 'orderId is required'),
  paymentId: z.string().min(1, 'paymentId is required'),
  signature: z.string().min(1, 'signature is required'),
  planId: planIdSchema,
  currency: currencySchema,
});
export type VerifyPaymentBody = z.infer<typeof verifyPaymentBodySchema>;

export const verifyPaymentResponseSchema = z.object({ success: z.boolean(), subscription: subscriptionSchema.nullable() });

export const cancelSubscriptionBodySchema = z.object({
  reason: z.string({ error: V.cancellationReasonRequired }).trim().min(1, V.cancellationReasonRequired).max(1000),
});
export const cancelSubscriptionResponseSchema = z.object({ success: z.literal(true), message: z.string(), subscription: subscriptionSchema });

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
  orderId: z.string().min(1, 'orderId is required'),
  outcome: z.enum(['success', 'failure']),
});
export type TestCheckoutPayBody = z.infer<typeof testCheckoutPayBodySchema>;
export type PaymentHandlerResult = z.infer<typeof paymentHandlerResultSchema>;

/** Razorpay webhook acknowledgement; `handled` is false for events and orders this product ignores. */
export const paymentWebhookResponseSchema = z.object({ received: z.literal(true), handled: z.boolean() });
