import { abortableSleep } from '../abortable-sleep.js';
import { CancelledError, ProviderError } from '../errors.js';
import { markRetriedByAdapter } from './provider-retry.js';

/** Which kind of service a request goes to; it names the service in messages a creator reads. */
export type ServiceKind = 'story' | 'voice' | 'image';

/** The parts of a provider's error body worth showing: its code and its own message. */
export interface ProviderErrorDetails {
  code?: string;
  message?: string;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface RequestWithRetryOptions {
  /** Provider name recorded on every ProviderError ('openai', 'azure', 'elevenlabs'). */
  provider: string;
  service: ServiceKind;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /**
   * Base delay before each retry; its length + 1 is the number of attempts. Each delay gets up to
   * 25% random jitter so parallel jobs that failed together do not retry together.
   */
  retryDelaysMs?: readonly number[];
  /** A Retry-After longer than this is not waited for: the request fails as rate-limited instead. */
  maxRetryAfterMs?: number;
  /** Per attempt: a provider that stops answering counts as a network failure. */
  timeoutMs?: number;
  /** Values that must never appear in a message (API keys); they are masked if a provider echoes them. */
  secrets?: readonly string[];
  /**
   * Provider-specific reading of a failed response (content policy, exhausted quota...). Returning an
   * error makes it final unless it is marked retryable; returning undefined falls back to the status.
   */
  classifyError?: (status: number, details: ProviderErrorDetails) => ProviderError | undefined;
}

/** How a provider adapter's requests travel, as its options may set them (a test server, a proxy): see RequestWithRetryOptions. */
export interface ProviderTransportOptions {
  fetch?: typeof fetch;
  retryDelaysMs?: number[];
  timeoutMs?: number;
}

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 3_000];
const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;
const MAX_PROVIDER_MESSAGE_LENGTH = 240;

export function serviceLabel(service: ServiceKind): string {
  return `The ${service} service`;
}

/**
 * One HTTP request to a provider, with the retry policy every adapter shares: network failures,
 * timeouts, 408/409/429 and 5xx are retried with exponential backoff and jitter (429 honours
 * Retry-After); everything else fails at once. Failures become ProviderErrors whose message a
 * creator can act on; an abort through `signal` becomes a CancelledError.
 */
export async function requestWithRetry(options: RequestWithRetryOptions): Promise<HttpResult> {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxAttempts = delays.length + 1;
  const doFetch = options.fetch ?? globalThis.fetch;
  const label = serviceLabel(options.service);
  let lastError: ProviderError | undefined;

  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    if (options.signal?.aborted) throw new CancelledError();
    const outcome = await attemptOnce(options, doFetch, label);
    if (outcome.kind === 'ok') return outcome.result;
    lastError = outcome.error;
    if (!outcome.error.retryable || attempt === maxAttempts) break;

    const backoff = withJitter(delays[attempt - 1] ?? 0);
    let waitMs = backoff;
    if (outcome.retryAfterMs !== undefined) {
      if (outcome.retryAfterMs > (options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS)) break;
      waitMs = Math.max(outcome.retryAfterMs, backoff);
    }
    await abortableSleep(waitMs, options.signal);
  }
  // This request already had its retries; the runner must not multiply them.
  throw markRetriedByAdapter(lastError ?? new ProviderError(`${label} could not be reached`, options.provider, true));
}

type AttemptOutcome = { kind: 'ok'; result: HttpResult } | { kind: 'failed'; error: ProviderError; retryAfterMs?: number };

async function attemptOnce(options: RequestWithRetryOptions, doFetch: typeof fetch, label: string): Promise<AttemptOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await doFetch(options.url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      body: options.body,
      signal,
    });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.ok) return { kind: 'ok', result: { status: response.status, headers: response.headers, body } };
    return {
      kind: 'failed',
      error: errorForStatus(options, label, response.status, body),
      retryAfterMs: response.status === 429 || response.status === 503 ? retryAfterMs(response.headers) : undefined,
    };
  } catch (error) {
    if (options.signal?.aborted) throw new CancelledError();
    if (timeout.aborted) {
      return {
        kind: 'failed',
        error: new ProviderError(
          `${label} did not answer within ${Math.round(timeoutMs / 1000)} seconds; try again later`,
          options.provider,
          true,
          undefined,
          { cause: error },
        ),
      };
    }
    return {
      kind: 'failed',
      error: new ProviderError(
        `Could not reach ${label.replace(/^The/, 'the')}${networkReason(error)}; check the service address and the network`,
        options.provider,
        true,
        undefined,
        { cause: error },
      ),
    };
  }
}

function errorForStatus(options: RequestWithRetryOptions, label: string, status: number, body: Buffer): ProviderError {
  const details = parseProviderErrorBody(body.toString('utf8'));
  const custom = options.classifyError?.(status, details);
  if (custom) return custom;

  const said = providerSays(details, options.secrets);
  const { provider } = options;
  if (status === 401 || status === 403) {
    return new ProviderError(`${label} rejected the API key${said}`, provider, false, status);
  }
  if (status === 429) {
    return new ProviderError(`${label} is rate-limiting requests; try again in a minute${said}`, provider, true, status);
  }
  if (status >= 500 || status === 408 || status === 409) {
    return new ProviderError(`${label} is unavailable right now (HTTP ${status}); try again later${said}`, provider, true, status);
  }
  if (status === 404) {
    return new ProviderError(
      `${label} could not find what was asked for (HTTP 404); check the service address and the model or voice name${said}`,
      provider,
      false,
      status,
    );
  }
  return new ProviderError(`${label} rejected the request (HTTP ${status})${said}`, provider, false, status);
}

/** ": <provider message>." when the provider said something, safe to show (keys masked, length capped). */
export function providerSays(details: ProviderErrorDetails, secrets?: readonly string[]): string {
  if (!details.message) return '';
  const safe = redactSecrets(details.message, secrets).replace(/\s+/g, ' ').trim();
  if (!safe) return '';
  const capped = safe.length > MAX_PROVIDER_MESSAGE_LENGTH ? `${safe.slice(0, MAX_PROVIDER_MESSAGE_LENGTH - 1)}…` : safe;
  return `: ${capped.replace(/[.\s]+$/, '')}.`;
}

/** Masks the given secrets and anything shaped like an API key (long opaque tokens, masked or not). */
export function redactSecrets(text: string, secrets?: readonly string[]): string {
  let out = text;
  for (const secret of secrets ?? []) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.replace(/\b(?:sk|pk|xi|rk)[-_][A-Za-z0-9_*-]{6,}/g, '[redacted]').replace(/[A-Za-z0-9_*-]{32,}/g, '[redacted]');
}

/**
 * Reads the error bodies of the providers we speak to: OpenAI-compatible `{error:{message,code,type}}`,
 * Azure `{error:{code,message}}`, ElevenLabs `{detail:{status,message}}` or FastAPI's
 * `{detail:[{msg,loc}]}`, Ollama `{error:"..."}`, or plain text.
 */
export function parseProviderErrorBody(text: string): ProviderErrorDetails {
  const trimmed = text.trim();
  if (!trimmed) return {};
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    // Gateways answer with HTML pages; only short plain text is a message.
    return trimmed.startsWith('<') || trimmed.length > 500 ? {} : { message: trimmed };
  }
  if (!isRecord(json)) return {};
  const error = json.error;
  if (typeof error === 'string') return { message: error };
  if (isRecord(error)) {
    return {
      code: stringOf(error.code) ?? stringOf(error.type),
      message: stringOf(error.message),
    };
  }
  const detail = json.detail;
  if (typeof detail === 'string') return { message: detail };
  if (isRecord(detail)) return { code: stringOf(detail.status) ?? stringOf(detail.code), message: stringOf(detail.message) };
  if (Array.isArray(detail)) {
    const messages = detail
      .filter(isRecord)
      .map((item) => {
        const where = Array.isArray(item.loc) ? item.loc.filter((part) => part !== 'body').join('.') : '';
        const msg = stringOf(item.msg) ?? '';
        return where ? `${where}: ${msg}` : msg;
      })
      .filter(Boolean);
    return messages.length ? { code: 'validation_error', message: messages.join('; ') } : {};
  }
  return { code: stringOf(json.code), message: stringOf(json.message) };
}

/** Retry-After in seconds or as an HTTP date; OpenAI also sends retry-after-ms. */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Parses a successful JSON body; a body that is not JSON is the provider's fault, not the creator's. */
export function parseJsonBody(result: HttpResult, provider: string, service: ServiceKind): unknown {
  try {
    return JSON.parse(result.body.toString('utf8'));
  } catch (error) {
    throw new ProviderError(
      `${serviceLabel(service)} sent a response that could not be read; try again later`,
      provider,
      true,
      result.status,
      { cause: error },
    );
  }
}

function withJitter(delayMs: number): number {
  return delayMs + Math.random() * delayMs * 0.25;
}

function networkReason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  switch (code) {
    case 'ECONNREFUSED':
      return ' (connection refused)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return ' (unknown host name)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return ' (the connection was dropped)';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return ' (the connection timed out)';
    default:
      return '';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}
