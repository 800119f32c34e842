import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

export const PRIVATE_ADDRESS_MESSAGE =
  'Webhook URLs must reach a public address: this one resolves to a loopback, private, link-local or metadata address';

/** IPv6's global unicast block; everything outside it (including the deprecated IPv4-compatible ::/96) is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Only ordinary public unicast addresses: loopback, private, link-local (cloud metadata), CGNAT,
 * reserved … are not. An IPv4-mapped IPv6 address is judged by its IPv4 address; any other IPv6
 * address must be global unicast (2000::/3), which refuses IPv4-compatible forms like ::127.0.0.1.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return false;
  return parsed.range() === 'unicast';
}

/** Every address a host name resolves to (or the literal address itself). */
export async function resolveHost(hostname: string): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  return lookup(host, { all: true, verbatim: true });
}

/**
 * Null when the URL may receive webhooks, else why not. Checked when the webhook is created, and
 * again on every connection (see webhook-sender.ts), so a name re-pointed later is caught too.
 */
export async function refuseUnlessPublic(url: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await resolveHost(new URL(url).hostname);
  } catch {
    return `Webhook URL host cannot be resolved: ${new URL(url).hostname}`;
  }
  return addresses.length > 0 && addresses.every((entry) => isPublicAddress(entry.address)) ? null : PRIVATE_ADDRESS_MESSAGE;
}

/**
 * Resolves like the system does, but refuses private addresses at connect time (no DNS rebinding).
 * Webhook deliveries and the pages a video is made from both connect through it.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as unknown as Array<{ address: string; family: number }>;
    const allowed = list.filter((entry) => isPublicAddress(entry.address));
    if (allowed.length === 0) return callback(new Error(PRIVATE_ADDRESS_MESSAGE), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof allowed) => void)(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};
