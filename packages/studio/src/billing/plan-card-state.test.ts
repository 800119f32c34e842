import type { Subscription } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { planCardState } from './plan-card-state.js';

const sub = (planId: Subscription['planId'], status: Subscription['status']): Subscription => ({
  planId,
  planName: 'x',
  status,
  cancelled_at: status === 'cancelled' ? '2026-03-20T00:00:00.000Z' : null,
  cancelledAt: status === 'cancelled' ? '2026-03-20T00:00:00.000Z' : null,
  startDate: '2026-03-10T12:00:00.000Z',
  endDate: '2026-04-10T12:00:00.000Z',
  videoLimit: 75,
  currency: 'INR',
});
const basic = { id: 'basic_plan', name: 'Basic' } as const;
const starter = { id: 'starter_plan', name: 'Starter' } as const;
const pro = { id: 'pro_plan', name: 'Pro' } as const;

describe('planCardState', () => {
  it('offers Choose {plan} without a subscription', () => {
    expect(planCardState(basic, null)).toEqual({ label: 'Choose Basic', disabled: false, chip: null, current: false });
  });

  it('marks the active plan as current and disabled with an Active chip', () => {
    expect(planCardState(basic, sub('basic_plan', 'active'))).toEqual({
      label: 'Current Plan',
      disabled: true,
      chip: { text: 'Active', tone: 'active' },
      current: true,
    });
  });

  it('blocks lower plans while a higher one is active, and offers upgrades', () => {
    expect(planCardState(starter, sub('basic_plan', 'active'))).toMatchObject({ label: 'Downgrade Not Allowed', disabled: true });
    expect(planCardState(pro, sub('basic_plan', 'active'))).toMatchObject({ label: 'Upgrade to Pro', disabled: false });
  });

  it('offers Reactivate on a cancelled plan with its valid-until date, and lets lower plans be chosen', () => {
    expect(planCardState(basic, sub('basic_plan', 'cancelled'))).toEqual({
      label: 'Reactivate Plan',
      disabled: false,
      chip: { text: 'Cancelled - Valid until Apr 10, 2026', tone: 'cancelled' },
      current: true,
    });
    expect(planCardState(starter, sub('basic_plan', 'cancelled'))).toMatchObject({ label: 'Upgrade to Starter', disabled: false });
  });

  it('offers Renew on an expired plan', () => {
    expect(planCardState(basic, sub('basic_plan', 'expired'))).toMatchObject({
      label: 'Renew Plan',
      chip: { text: 'Expired on Apr 10, 2026' },
    });
    expect(planCardState(starter, sub('basic_plan', 'expired')).disabled).toBe(false);
  });
});
