import { describe, expect, it } from 'vitest';
import { gstOn, PLANS, priceWithTax } from './plans.js';
import { addUtcMonths, MINIMUM_CHARGE_MINOR, prorateUpgrade, toApiPlan } from './pricing.js';

describe('GST', () => {
  it('adds 18 % to INR prices, rounded half up to the paisa', () => {
    expect(priceWithTax(19_900, 'INR')).toEqual({ base: 19_900, gst: 3_582, total: 23_482 });
    // 18 % of ₹0.25 is 4.5 paise → 5; of ₹0.24 is 4.32 → 4.
    expect(gstOn(25, 'INR')).toBe(5);
    expect(gstOn(24, 'INR')).toBe(4);
    // 18 % of ₹333.33 is 5999.94 paise → 6000.
    expect(gstOn(33_333, 'INR')).toBe(6_000);
  });

  it('charges no GST in USD', () => {
    expect(priceWithTax(499, 'USD')).toEqual({ base: 499, gst: 0, total: 499 });
  });

  it('lists plans with display prices that add up exactly', () => {
    for (const plan of PLANS) {
      const inr = toApiPlan(plan, 'INR');
      expect(inr.hasGst).toBe(true);
      expect(Math.round((inr.price + inr.gstAmount) * 100)).toBe(Math.round(inr.totalAmount * 100));
      const usd = toApiPlan(plan, 'USD');
      expect(usd).toMatchObject({ hasGst: false, gstAmount: 0, totalAmount: usd.price });
    }
    expect(toApiPlan(PLANS[0]!, 'INR')).toMatchObject({ price: 199, gstAmount: 35.82, totalAmount: 234.82 });
  });
});

describe('addUtcMonths', () => {
  it.each([
    ['2026-01-15T10:00:00.000Z', '2026-02-15T10:00:00.000Z'],
    ['2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z'],
    ['2028-01-31T00:00:00.000Z', '2028-02-29T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', '2027-01-31T23:59:59.999Z'],
    ['2026-03-31T05:00:00.000Z', '2026-04-30T05:00:00.000Z'],
  ])('%s plus one month is %s', (from, to) => {
    expect(addUtcMonths(new Date(from), 1).toISOString()).toBe(to);
  });
});

describe('prorateUpgrade', () => {
  const period = { start: new Date('2026-03-01T00:00:00.000Z'), end: new Date('2026-04-01T00:00:00.000Z') };

  it('charges the price difference for the remaining days, in paise', () => {
    // Starter ₹499 → Basic ₹999: ₹500 × 16/31 = ₹258.0645… → ₹258.06.
    const proration = prorateUpgrade('starter_plan', 'basic_plan', 'INR', period, new Date('2026-03-16T00:00:00.000Z'));
    expect(proration).toMatchObject({ amount: 25_806, remainingDays: 16, periodDays: 31, currentPlan: 'Starter', newPlan: 'Basic' });
    expect(proration.calculation).toBe('(₹999.00 - ₹499.00) × 16/31 days = ₹258.06');
    expect(proration.description).toContain('remaining 16 days');
  });

  it('rounds cents half up', () => {
    // Essentials $4.99 → Starter $9.99: 500 × 15/30 = 250 exactly; × 1/30 = 16.67 → 17 cents, raised to the minimum.
    const april = { start: new Date('2026-04-01T00:00:00.000Z'), end: new Date('2026-05-01T00:00:00.000Z') };
    expect(prorateUpgrade('essentials_plan', 'starter_plan', 'USD', april, new Date('2026-04-16T00:00:00.000Z')).amount).toBe(250);
    // Basic $19.99 → Pro $39.99: 2000 × 7/30 = 466.67 → 467.
    expect(prorateUpgrade('basic_plan', 'pro_plan', 'USD', april, new Date('2026-04-24T00:00:00.000Z')).amount).toBe(467);
  });

  it('counts a started day as a whole remaining day and never charges below the minimum', () => {
    const lastHour = new Date('2026-03-31T23:00:00.000Z');
    const proration = prorateUpgrade('essentials_plan', 'starter_plan', 'USD', period, lastHour);
    expect(proration.remainingDays).toBe(1);
    expect(proration.amount).toBe(MINIMUM_CHARGE_MINOR);
    expect(proration.calculation).toContain('minimum charge $1.00');
  });

  it('charges the whole difference on the first day, using the real length of February', () => {
    const february = { start: new Date('2026-02-01T00:00:00.000Z'), end: new Date('2026-03-01T00:00:00.000Z') };
    const proration = prorateUpgrade('essentials_plan', 'pro_plan', 'INR', february, february.start);
    expect(proration).toMatchObject({ amount: 1_80_000, remainingDays: 28, periodDays: 28 });
  });

  it('refuses a move that is not an upgrade', () => {
    expect(() => prorateUpgrade('pro_plan', 'basic_plan', 'INR', period, period.start)).toThrow(/not an upgrade/);
  });
});
