import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../api/api-client.js';
import { fakeFetch } from '../../testing/render-studio.js';
import { currencyFromBrowser, detectCurrency } from './currency-detection.js';

describe('currency detection', () => {
  it.each([
    [{ timeZone: 'Asia/Kolkata', languages: ['en-US'] }, 'INR'],
    [{ timeZone: 'Asia/Calcutta', languages: [] }, 'INR'],
    [{ timeZone: 'Europe/Berlin', languages: ['hi'] }, 'INR'],
    [{ timeZone: 'America/New_York', languages: ['en-IN'] }, 'INR'],
    [{ timeZone: 'America/New_York', languages: ['en-US', 'en'] }, 'USD'],
    [{ timeZone: undefined, languages: [] }, 'USD'],
  ] as const)('%j → %s', (browser, currency) => {
    expect(currencyFromBrowser(browser)).toBe(currency);
  });

  const client = (body: unknown, status = 200) =>
    createApiClient({ baseUrl: '', getToken: () => null, fetch: fakeFetch(() => ({ status, body })).fetch });
  const american = { timeZone: 'America/Chicago', languages: ['en-US'] };
  const indian = { timeZone: 'Asia/Kolkata', languages: ['en-GB'] };

  it("trusts the server's lookup when it knows the country", async () => {
    expect(
      await detectCurrency(
        client({ success: true, pricing: { currency: 'INR' }, location: { country: 'India', countryCode: 'IN' } }),
        american,
      ),
    ).toBe('INR');
    expect(
      await detectCurrency(
        client({ success: true, pricing: { currency: 'USD' }, location: { country: 'Germany', countryCode: 'DE' } }),
        indian,
      ),
    ).toBe('USD');
  });

  it('falls back to the browser when the server does not know or fails', async () => {
    expect(
      await detectCurrency(
        client({ success: false, pricing: { currency: 'USD' }, location: { country: 'Unknown', countryCode: 'XX' } }),
        indian,
      ),
    ).toBe('INR');
    expect(await detectCurrency(client({ statusCode: 500, error: 'x', message: 'down' }, 500), indian)).toBe('INR');
    expect(await detectCurrency(client({ statusCode: 500, error: 'x', message: 'down' }, 500), american)).toBe('USD');
  });
});
