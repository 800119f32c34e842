import {
  MESSAGES,
  PAYMENTS_NOT_CONFIGURED_MESSAGE,
  PLAN_CARD_FEATURE_COUNT,
  type Currency,
  type Plan,
  type Subscription,
} from '@reelsmith/contracts';
import { useEffect } from 'react';
import { toast } from '../toaster.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { formatAmount, formatPrice, videoLimitText } from '../shared/billing/billing-format.js';
import { useSubscription } from '../shared/billing/billing-hooks.js';
import { usePlans } from '../shared/billing/pricing-hooks.js';
import { planCardState } from './plan-card-state.js';
import { TestCheckoutDialog } from './test-checkout-dialog.js';
import { usePlanPurchase } from './use-plan-purchase.js';

export function PlanCard({
  plan,
  subscription,
  pending,
  busy,
  onChoose,
}: {
  plan: Plan;
  subscription: Subscription | null;
  /** This card's payment is in progress. */
  pending: boolean;
  /** Some payment is in progress (every card waits). */
  busy: boolean;
  onChoose(plan: Plan): void;
}) {
  const state = planCardState(plan, subscription);
  return (
    <article className={`rs-plan-card${state.current ? ' rs-plan-card--current' : ''}`} aria-label={`${plan.name} plan`}>
      <header className="rs-plan-card__header">
        <h2 className="rs-plan-card__name">{plan.name}</h2>
        {state.chip ? <span className={`rs-chip rs-chip--${state.chip.tone}`}>{state.chip.text}</span> : null}
      </header>
      <p className="rs-plan-card__price">
        <span className="rs-plan-card__amount">{formatPrice(plan.price, plan.currency)}</span>
        <span className="rs-plan-card__period">/month</span>
      </p>
      {plan.hasGst ? (
        <p
          className="rs-plan-card__gst"
          aria-label={`Price ${formatAmount(plan.price, plan.currency)}, GST 18% ${formatAmount(plan.gstAmount, plan.currency)}, total ${formatAmount(plan.totalAmount, plan.currency)} per month`}
        >
          <span>+ GST (18%) {formatAmount(plan.gstAmount, plan.currency)}</span>
          <span className="rs-plan-card__total">Total {formatAmount(plan.totalAmount, plan.currency)}/month</span>
        </p>
      ) : null}
      <p className="rs-plan-card__limit">{videoLimitText(plan.videoLimit)}</p>
      <ul className="rs-plan-card__features">
        {plan.features.slice(0, PLAN_CARD_FEATURE_COUNT).map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
      <button
        type="button"
        className={`rs-button rs-button--block ${state.disabled ? 'rs-button--ghost' : 'rs-button--primary'}`}
        disabled={state.disabled || busy}
        aria-busy={pending || undefined}
        onClick={() => onChoose(plan)}
      >
        {pending ? 'Processing…' : state.label}
      </button>
    </article>
  );
}

export const SECURE_PAYMENTS_NOTE = 'Secure payments powered by Razorpay. Cards, UPI, net banking and wallets accepted.';

/** Plan cards with the payment flow behind their buttons; shared by the pricing page and dialog. */
export function PlanGrid({ currency, onSubscribed }: { currency: Currency; onSubscribed?: () => void }) {
  const plans = usePlans(currency);
  const subscription = useSubscription();
  const { ask, dialog } = useConfirm();
  const purchase = usePlanPurchase({
    currency,
    onSubscribed,
    confirm: (summary) => ask({ title: 'Confirm payment', description: summary, confirmLabel: 'Proceed to payment' }),
  });

  useEffect(() => {
    if (plans.isError) toast.error(MESSAGES.plansLoadFailed);
  }, [plans.isError]);

  return (
    <>
      {plans.isLoading ? <p className="rs-pricing__status">Loading plans…</p> : null}
      {plans.isError ? (
        <p role="alert" className="rs-alert rs-alert--error">
          {MESSAGES.plansLoadFailed}
        </p>
      ) : null}
      {plans.data?.paymentsConfigured === false ? (
        <p role="status" className="rs-alert rs-alert--error">
          {PAYMENTS_NOT_CONFIGURED_MESSAGE}
        </p>
      ) : null}
      {plans.data ? (
        <div className="rs-plan-grid">
          {plans.data.plans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              subscription={subscription.data?.subscription ?? null}
              pending={purchase.pendingPlanId === plan.id}
              busy={purchase.pendingPlanId !== null || plans.data?.paymentsConfigured === false}
              onChoose={(chosen) => void purchase.choose(chosen)}
            />
          ))}
        </div>
      ) : null}
      <TestCheckoutDialog request={purchase.testCheckout} />
      {dialog}
    </>
  );
}

/** The secure-payments notice with a padlock (drawn, so it does not depend on an emoji font). */
export function SecurePaymentsNote() {
  return (
    <p className="rs-pricing__secure">
      <svg
        width="14"
        height="14"
        viewBox="0 0 24 24"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <rect x="4" y="11" width="16" height="10" rx="2" />
        <path d="M8 11V7a4 4 0 0 1 8 0v4" />
      </svg>
      {SECURE_PAYMENTS_NOTE}
    </p>
  );
}

export function currencyNote(currency: Currency): string {
  return currency === 'INR' ? 'Prices in Indian Rupees (₹)' : 'Prices in US Dollars ($)';
}
