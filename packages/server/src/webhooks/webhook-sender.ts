import http from 'node:http';
import https from 'node:https';
import { publicOnlyLookup } from '../outbound/webhook-address.js';

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Short, so a receiver that never answers holds its tenant's delivery slot for little time. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

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
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Reelsmith-Webhooks/1',
          ...headers,
        },
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
