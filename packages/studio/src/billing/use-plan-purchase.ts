import { MESSAGES, type Currency, type OrderResponse, type PaymentHandlerResult, type Plan } from '@reelsmith/contracts';
import { useState } from 'react';
import { toast } from '../toaster.js';
import { useNavigate } from 'react-router';
import { errorMessage } from '../api/api-client.js';
import { apiUrl, usePlatform } from '../platform.js';
import { useApi, useAuth } from '../services.js';
import { formatAmount } from '../shared/billing/billing-format.js';
import { useSubscription } from '../shared/billing/billing-hooks.js';
import { planCardState } from './plan-card-state.js';
import { loadRazorpayCheckout, openRazorpayCheckout } from './razorpay-checkout.js';
import type { TestCheckoutRequest } from './test-checkout-dialog.js';

/** What the buyer confirms before paying: the proration, or the GST summary of an INR plan; null when there is nothing to confirm. */
export function paymentSummary(order: OrderResponse): string | null {
  if (!order.order) return null;
  const { currency, plan } = order.order;
  const money = (amount: number) => formatAmount(amount, currency);
  const taxLines = plan.hasGst
    ? [`GST (18%): ${money(plan.gstAmount)}`, `Total: ${money(plan.totalAmount)}`]
    : [`Total: ${money(plan.totalAmount)}`];
  if (order.proration?.isProrated) {
    const { description, breakdown } = order.proration;
    return [description, '', breakdown.calculation, `Prorated amount: ${money(plan.price)}`, ...taxLines, '', 'Proceed to payment?'].join(
      '\n',
    );
  }
  if (plan.hasGst) {
    return [`${plan.name} plan`, '', `Base price: ${money(plan.price)}`, ...taxLines, '', 'Proceed to payment?'].join('\n');
  }
  return null;
}

export interface PlanPurchase {
  choose(plan: Plan): Promise<void>;
  /** The plan whose payment is in progress. */
  pendingPlanId: Plan['id'] | null;
  /** Render with <TestCheckoutDialog request={…} /> (TEST MODE only). */
  testCheckout: TestCheckoutRequest | null;
}

/**
 * The payment flow: create the order; confirm the proration or GST summary (in the
 * product's dialog);
 * open the checkout (Razorpay's, or the TEST MODE one); verify; refresh the subscription; then
 * `onSubscribed` (the dialog closes itself there).
 */
export function usePlanPurchase({
  currency,
  onSubscribed,
  confirm,
}: {
  currency: Currency;
  onSubscribed?: () => void;
  /** Asks the payment summary in the product's own dialog (never the browser's confirm()); false cancels. */
  confirm: (summary: string) => Promise<boolean>;
}): PlanPurchase {
  const api = useApi();
  const platform = usePlatform();
  const navigate = useNavigate();
  const user = useAuth((s) => (s.isAuthenticated ? s.user : null));
  const subscription = useSubscription();
  const [pendingPlanId, setPendingPlanId] = useState<Plan['id'] | null>(null);
  const [testCheckout, setTestCheckout] = useState<TestCheckoutRequest | null>(null);

  const finish = async () => {
    await subscription.refresh();
    onSubscribed?.();
  };

  const openCheckout = async (order: OrderResponse, plan: Plan): Promise<PaymentHandlerResult | null | 'unavailable'> => {
    const details = order.order!;
    if (order.checkoutMode === 'test') {
      return new Promise((resolve) => {
        setTestCheckout({
          order: details,
          planName: plan.name,
          settle: (result) => {
            setTestCheckout(null);
            resolve(result);
          },
        });
      });
    }
    // Extension pages may not load remote scripts: buy on the web app instead.
    if (platform.kind === 'extension') {
      platform.navigation.openTab(apiUrl(platform, '/pricing'));
      return null;
    }
    if (!order.razorpayKeyId || !(await loadRazorpayCheckout())) return 'unavailable';
    return openRazorpayCheckout({
      keyId: order.razorpayKeyId,
      orderId: details.orderId,
      amount: details.amount,
      currency: details.currency,
      description: `${plan.name} plan`,
      prefill: { name: user?.name, email: user?.email },
    });
  };

  const choose = async (plan: Plan) => {
    if (!user) {
      void navigate('/login');
      return;
    }
    if (planCardState(plan, subscription.data?.subscription ?? null).label === 'Current Plan') {
      toast(MESSAGES.currentPlanChosen);
      return;
    }
    if (pendingPlanId) return;
    setPendingPlanId(plan.id);
    try {
      let order: OrderResponse;
      try {
        order = await api.call('createOrder', { body: { planId: plan.id, currency } });
      } catch (error) {
        toast.error(errorMessage(error, MESSAGES.orderFailed));
        return;
      }
      if (!order.requiresPayment || !order.order) {
        // The server words it (a reactivation names its end date like every billing date).
        toast.success(order.message ?? MESSAGES.subscriptionUpdated);
        await finish();
        return;
      }
      const summary = paymentSummary(order);
      if (summary && !(await confirm(summary))) return;

      const result = await openCheckout(order, plan);
      if (result === 'unavailable') {
        toast.error(MESSAGES.checkoutUnavailable);
        return;
      }
      // Dismissed: only the in-progress state is cleared.
      if (!result) return;
      const verified = await api
        .call('verifyPayment', {
          body: {
            orderId: result.razorpay_order_id,
            paymentId: result.razorpay_payment_id,
            signature: result.razorpay_signature,
            planId: plan.id,
            currency: order.order.currency,
          },
        })
        .then(
          (response) => response.success,
          () => false,
        );
      // The verify response carries its own success flag: false is a failure too.
      if (!verified) {
        toast.error(MESSAGES.verificationFailed);
        return;
      }
      toast.success(MESSAGES.paymentSuccess);
      toast.success(MESSAGES.subscriptionUpdated);
      await finish();
    } finally {
      setPendingPlanId(null);
    }
  };

  return { choose, pendingPlanId, testCheckout };
}
