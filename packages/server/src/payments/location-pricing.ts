import type { Currency, LocationPricingResponse } from '@reelsmith/contracts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';

/** The country code the API answers with when the client's country cannot be told. */
export const UNKNOWN_COUNTRY_CODE = 'XX';

/** Codes proxies use for "not a country" (Cloudflare: XX unknown, T1 Tor). */
const NOT_A_COUNTRY = new Set(['XX', 'T1', 'ZZ']);

export type CountryLookup = (ip: string) => string | null;

/**
 * An IP-to-country lookup over the geo-whois-asn-country database that ships inside its npm
 * package (CC0/CC BY 4.0 data, ~8 MB, no download at install or run time), read on first use.
 */
export function createMmdbCountryLookup(): CountryLookup {
  // This database's records are { country_code }, not one of MaxMind's response shapes the types know.
  let reader: Reader<Response> | null = null;
  return (ip) => {
    if (isIP(ip) === 0) return null;
    if (!reader) {
      const file = createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
      reader = new Reader<Response>(readFileSync(file));
    }
    // Loopback and private ranges are simply absent from the database.
    const record = reader.get(ip.replace(/^::ffff:/, '')) as { country_code?: string } | null;
    const code = record?.country_code;
    return code ? code.toUpperCase() : null;
  };
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function normalizeCode(value: string | undefined | null): string | null {
  const code = value?.trim().toUpperCase();
  if (!code || !/^[A-Z]{2}$/.test(code) || NOT_A_COUNTRY.has(code)) return null;
  return code;
}

export const currencyForCountry = (countryCode: string): Currency => (countryCode === 'IN' ? 'INR' : 'USD');

/**
 * Location pricing: the trusted proxy's country header when one is configured, else the GeoIP
 * lookup of the client address. An unknown country answers success false (USD, 'XX'), which sends
 * the client on to its timezone and language heuristics.
 */
export function resolveLocationPricing(input: { headerValue: string | null; ip: string }, lookup: CountryLookup): LocationPricingResponse {
  const code = normalizeCode(input.headerValue) ?? normalizeCode(lookup(input.ip));
  if (!code) return { success: false, pricing: { currency: 'USD' }, location: { country: 'Unknown', countryCode: UNKNOWN_COUNTRY_CODE } };
  return {
    success: true,
    pricing: { currency: currencyForCountry(code) },
    location: { country: regionNames.of(code) ?? code, countryCode: code },
  };
}
