import type { LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isPublicAddress, PRIVATE_ADDRESS_MESSAGE } from './webhook-address.js';

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Short, so a receiver that never answers holds its tenant's delivery slot for little time. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

/** Resolves like the system does, but refuses private addresses at connect time (no DNS rebinding). */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as unknown as Array<{ address: string; family: number }>;
    const allowed = list.filter((entry) => isPublicAddress(entry.address));
    if (allowed.length === 0) return callback(new Error(PRIVATE_ADDRESS_MESSAGE), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof allowed) => void)(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

/** One POST of a signed body; never throws. */
export function postWebhook(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<SendResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const finish = (statusCode: number | null, error: string | null) => resolve({ statusCode, error, durationMs: Date.now() - started });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      finish(null, 'invalid URL');
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Reelsmith-Webhooks/1', ...headers },
        timeout: WEBHOOK_TIMEOUT_MS,
        ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        response.resume();
        response.on('end', () => finish(response.statusCode ?? null, null));
        response.on('error', (error) => finish(response.statusCode ?? null, error.message));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no response within ${WEBHOOK_TIMEOUT_MS / 1000} s`)));
    request.on('error', (error) => finish(null, error.message));
    request.end(body);
  });
}
