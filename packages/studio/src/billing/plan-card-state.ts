import { PLAN_IDS, type Plan, type PlanId, type Subscription } from '@reelsmith/contracts';
import { formatPlanDate } from '../shared/billing/billing-format.js';

export interface PlanCardState {
  label: string;
  disabled: boolean;
  chip: { text: string; tone: 'active' | 'cancelled' | 'expired' } | null;
  /** Whether this card is the user's current plan (highlighted). */
  current: boolean;
}

const rank = (id: PlanId) => PLAN_IDS.indexOf(id);

/** The state of a plan card for the current subscription (current, upgrade, downgrade, renew…). */
export function planCardState(plan: Pick<Plan, 'id' | 'name'>, subscription: Subscription | null): PlanCardState {
  if (subscription && subscription.planId === plan.id) {
    if (subscription.status === 'active')
      return { label: 'Current Plan', disabled: true, chip: { text: 'Active', tone: 'active' }, current: true };
    if (subscription.status === 'cancelled') {
      return {
        label: 'Reactivate Plan',
        disabled: false,
        chip: { text: `Cancelled - Valid until ${formatPlanDate(subscription.endDate)}`, tone: 'cancelled' },
        current: true,
      };
    }
    return {
      label: 'Renew Plan',
      disabled: false,
      chip: { text: `Expired on ${formatPlanDate(subscription.endDate)}`, tone: 'expired' },
      current: true,
    };
  }
  if (subscription && subscription.status === 'active' && rank(plan.id) < rank(subscription.planId)) {
    return { label: 'Downgrade Not Allowed', disabled: true, chip: null, current: false };
  }
  return { label: subscription ? `Upgrade to ${plan.name}` : `Choose ${plan.name}`, disabled: false, chip: null, current: false };
}
