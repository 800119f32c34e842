import { MESSAGES, type Currency } from '@reelsmith/contracts';

export const currencySymbol = (currency: Currency): string => (currency === 'INR' ? '₹' : '$');

/** A display price: ₹199, ₹234.82, $4.99 (whole amounts without decimals, as on price tags). */
export function formatPrice(amount: number, currency: Currency): string {
  const whole = Number.isInteger(amount);
  const text = amount.toLocaleString(currency === 'INR' ? 'en-IN' : 'en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  });
  return `${currencySymbol(currency)}${text}`;
}

/** Always two decimals, for the payment summaries. */
export function formatAmount(amount: number, currency: Currency): string {
  return `${currencySymbol(currency)}${amount.toLocaleString(currency === 'INR' ? 'en-IN' : 'en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Subscription dates as "Apr 10, 2026"; the spec's 'Invalid date' for anything unreadable. */
export function formatPlanDate(iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return MESSAGES.invalidDate;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

export const videoLimitText = (limit: number): string => (limit === -1 ? 'Unlimited' : `${limit} videos/month`);
