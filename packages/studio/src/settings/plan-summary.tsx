import { PLAN_IDS, UNLIMITED_VIDEOS, type Subscription } from '@reelsmith/contracts';
import { Link } from 'react-router';
import { formatPlanDate, formatPrice } from '../shared/billing/billing-format.js';
import { useSubscription } from '../shared/billing/billing-hooks.js';
import { usePlans } from '../shared/billing/pricing-hooks.js';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog.js';

const CURRENCY_NAMES = { INR: 'Indian Rupees (INR)', USD: 'US Dollars (USD)' } as const;

/** "3 of 10 videos" this month; "3 videos (unlimited)" on an unlimited plan. */
export function usageText(used: number, limit: number): string {
  if (limit === UNLIMITED_VIDEOS) return `${used} ${used === 1 ? 'video' : 'videos'} (unlimited)`;
  return `${used} of ${limit} ${limit === 1 ? 'video' : 'videos'}`;
}

function statusLine(subscription: Subscription): string {
  if (subscription.status === 'active') return `Renews on ${formatPlanDate(subscription.endDate)}`;
  if (subscription.status === 'cancelled') return `Cancelled - Access until ${formatPlanDate(subscription.endDate)}`;
  return `Expired on ${formatPlanDate(subscription.endDate)}`;
}

/**
 * Settings' plan section: the plan, its monthly price and currency, the renewal or end date, this
 * month's usage, and Upgrade and Cancel right beside them (not only in the Danger Zone).
 */
export function PlanSummary() {
  const { data, isLoading } = useSubscription();
  const subscription = data?.subscription ?? null;
  const plans = usePlans(subscription?.currency ?? 'INR');
  if (isLoading && !data) return null;
  const used = data?.usage.videosThisMonth ?? 0;
  const plan = subscription ? plans.data?.plans.find((candidate) => candidate.id === subscription.planId) : undefined;
  const isTopPlan = subscription?.planId === PLAN_IDS[PLAN_IDS.length - 1];

  return (
    <section className="rs-card rs-plan-summary" aria-labelledby="rs-plan-summary-title">
      <div className="rs-plan-summary__main">
        <h2 id="rs-plan-summary-title" className="rs-plan-summary__title">
          {subscription ? `${subscription.planName} plan` : 'Free plan'}
        </h2>
        {subscription ? (
          <dl className="rs-plan-summary__facts">
            <div>
              <dt>Price</dt>
              <dd>
                {plan
                  ? `${formatPrice(plan.price, subscription.currency)} per month · ${CURRENCY_NAMES[subscription.currency]}`
                  : CURRENCY_NAMES[subscription.currency]}
              </dd>
            </div>
            <div>
              <dt>{subscription.status === 'active' ? 'Renewal' : subscription.status === 'cancelled' ? 'Ends' : 'Ended'}</dt>
              <dd>{statusLine(subscription)}</dd>
            </div>
            <div>
              <dt>This month</dt>
              <dd>{usageText(used, subscription.videoLimit)}</dd>
            </div>
          </dl>
        ) : (
          <p className="rs-plan-summary__free">One free 30-second video with signup. Choose a plan for more videos and longer durations.</p>
        )}
      </div>
      <div className="rs-plan-summary__actions">
        {subscription?.status === 'active' ? (
          <>
            {isTopPlan ? null : (
              <Link to="/pricing" className="rs-button rs-button--primary">
                Upgrade
              </Link>
            )}
            <CancelSubscriptionDialog triggerLabel="Cancel Plan" triggerClassName="rs-button rs-button--ghost rs-button--danger" />
          </>
        ) : (
          <Link to="/pricing" className="rs-button rs-button--primary">
            {subscription?.status === 'cancelled' ? 'Reactivate Plan' : subscription?.status === 'expired' ? 'Renew Plan' : 'Upgrade'}
          </Link>
        )}
      </div>
    </section>
  );
}
