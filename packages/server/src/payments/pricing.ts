import type { Currency, Plan, PlanId } from '@reelsmith/contracts';
import { getPlan, hasGst, planRank, priceWithTax, toMajor, type PlanDefinition, type PriceBreakdown } from './plans.js';

const DAY_MS = 86_400_000;

/**
 * Smallest amount the provider accepts for an order (Razorpay: ₹1.00 / $1.00-equivalent in minor
 * units). A prorated upgrade on the last day can come out below it; such an upgrade is charged this.
 */
export const MINIMUM_CHARGE_MINOR = 100;

/** `date` plus `months` calendar months in UTC, clamped to the target month's last day (Jan 31 + 1 → Feb 28/29). */
export function addUtcMonths(date: Date, months: number): Date {
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  target.setUTCHours(date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds());
  return target;
}

/** Plan as the API lists it: display prices in major units, GST for INR. */
export function toApiPlan(plan: PlanDefinition, currency: Currency): Plan {
  const price = priceWithTax(plan.prices[currency], currency);
  return {
    id: plan.id,
    name: plan.name,
    price: toMajor(price.base),
    currency,
    videoLimit: plan.videoLimit,
    features: [...plan.features],
    hasGst: hasGst(currency),
    gstAmount: toMajor(price.gst),
    totalAmount: toMajor(price.total),
  };
}

export function formatMoney(amountMinor: number, currency: Currency): string {
  const symbol = currency === 'INR' ? '₹' : '$';
  return `${symbol}${(amountMinor / 100).toFixed(2)}`;
}

export interface Proration {
  /** Charged before tax, minor units. */
  amount: number;
  remainingDays: number;
  periodDays: number;
  description: string;
  calculation: string;
  currentPlan: string;
  newPlan: string;
}

/**
 * The prorated price of moving from `fromPlan` to the higher `toPlan` for what is left of the paid
 * period: (new price − current price) × remaining days / period days, rounded half up to a minor
 * unit. Part of a day counts as a whole one, so the buyer is never charged for less time than they get.
 */
export function prorateUpgrade(
  fromPlan: PlanId,
  toPlan: PlanId,
  currency: Currency,
  period: { start: Date; end: Date },
  now: Date,
): Proration {
  const from = getPlan(fromPlan);
  const to = getPlan(toPlan);
  if (planRank(toPlan) <= planRank(fromPlan)) throw new Error(`${toPlan} is not an upgrade from ${fromPlan}`);
  const periodDays = Math.max(1, Math.round((period.end.getTime() - period.start.getTime()) / DAY_MS));
  const remainingDays = Math.min(periodDays, Math.max(0, Math.ceil((period.end.getTime() - now.getTime()) / DAY_MS)));
  const difference = to.prices[currency] - from.prices[currency];
  const exact = Math.floor((2 * difference * remainingDays + periodDays) / (2 * periodDays));
  const amount = Math.max(MINIMUM_CHARGE_MINOR, exact);
  const money = (minor: number) => formatMoney(minor, currency);
  const minimumNote = amount > exact ? ` (minimum charge ${money(MINIMUM_CHARGE_MINOR)})` : '';
  return {
    amount,
    remainingDays,
    periodDays,
    currentPlan: from.name,
    newPlan: to.name,
    calculation: `(${money(to.prices[currency])} - ${money(from.prices[currency])}) × ${remainingDays}/${periodDays} days = ${money(exact)}${minimumNote}`,
    description: `Upgrade from ${from.name} to ${to.name} for the remaining ${remainingDays} day${remainingDays === 1 ? '' : 's'} of your billing period: ${money(amount)}`,
  };
}

export type { PriceBreakdown };
