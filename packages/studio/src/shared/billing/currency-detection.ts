import type { Currency } from '@reelsmith/contracts';
import type { ApiClient } from '../../api/api-client.js';

const INDIAN_TIME_ZONES = new Set(['Asia/Kolkata', 'Asia/Calcutta']);

/** The last fallback of currency detection: Indian time zone, Hindi, or an -IN locale → INR; otherwise USD. */
export function currencyFromBrowser(browser: { timeZone: string | undefined; languages: readonly string[] }): Currency {
  if (browser.timeZone && INDIAN_TIME_ZONES.has(browser.timeZone)) return 'INR';
  for (const language of browser.languages) {
    const tag = language.toLowerCase();
    if (tag === 'hi' || tag.startsWith('hi-') || tag.endsWith('-in')) return 'INR';
  }
  return 'USD';
}

export function browserLocale(): { timeZone: string | undefined; languages: readonly string[] } {
  let timeZone: string | undefined;
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    timeZone = undefined;
  }
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  const languages = nav?.languages?.length ? nav.languages : nav?.language ? [nav.language] : [];
  return { timeZone, languages };
}

/**
 * The pricing currency: the server's location lookup (IN → INR, else USD) when it knows the
 * country, else the browser's time zone and language.
 */
export async function detectCurrency(api: ApiClient, browser = browserLocale()): Promise<Currency> {
  try {
    const response = await api.call('locationPricing');
    if (response.success) return response.location.countryCode === 'IN' ? 'INR' : response.pricing.currency;
  } catch {
    // Falls through to the browser heuristics.
  }
  return currencyFromBrowser(browser);
}
