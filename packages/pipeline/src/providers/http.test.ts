import { describe, expect, it } from 'vitest';
import { CancelledError, ProviderError } from '../errors.js';
import { callProvider } from './provider-retry.js';
import { startFakeHttpServer, type FakeServer } from '../testing/fake-http-server.js';
import { closedAfterTest, expectCancelledMidRequest, rejectionOf } from '../testing/provider-test-kit.js';
import { parseProviderErrorBody, redactSecrets, requestWithRetry, retryAfterMs } from './http.js';

async function okServer(): Promise<FakeServer> {
  return closedAfterTest(await startFakeHttpServer(() => ({ status: 200, body: { ok: true } })));
}

const base = { provider: 'test', service: 'voice' as const, retryDelaysMs: [5, 5] };

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

describe('requestWithRetry', () => {
  it('sends method, headers and body and returns the body', async () => {
    const fake = await okServer();
    const result = await requestWithRetry({
      ...base,
      url: `${fake.url}/thing`,
      method: 'POST',
      headers: { 'X-Test': 'yes', 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
    expect(JSON.parse(result.body.toString())).toEqual({ ok: true });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/thing', text: '{"a":1}' });
    expect(fake.requests[0]?.headers['x-test']).toBe('yes');
  });

  it('does not retry a rejected key and says so', async () => {
    const fake = await okServer();
    fake.setNext({ status: 401, body: { error: { message: 'bad key', code: 'invalid_api_key' } } });
    const error = await failure(requestWithRetry({ ...base, url: fake.url }));
    expect(error.message).toBe('The voice service rejected the API key: bad key.');
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(401);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 429 after the Retry-After the provider asked for', async () => {
    const fake = await okServer();
    fake.setNext({
      status: 429,
      headers: { 'Retry-After': '1' },
      body: { detail: { status: 'too_many_concurrent_requests', message: 'busy' } },
    });
    const started = Date.now();
    const result = await requestWithRetry({ ...base, url: fake.url });
    expect(result.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up on a Retry-After longer than allowed instead of waiting', async () => {
    const fake = await okServer();
    fake.setNext({ status: 429, headers: { 'Retry-After': '3600' } });
    const started = Date.now();
    const error = await failure(requestWithRetry({ ...base, service: 'story', url: fake.url, maxRetryAfterMs: 1_000 }));
    expect(error.message).toBe('The story service is rate-limiting requests; try again in a minute');
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
    expect(fake.requests).toHaveLength(1);
  });

  it('surfaces a retryable error after three 5xx answers', async () => {
    const fake = await okServer();
    fake.setNext({ status: 503 }, { status: 502 }, { status: 500, body: 'upstream exploded' });
    const error = await failure(requestWithRetry({ ...base, service: 'image', url: fake.url }));
    expect(error.message).toBe('The image service is unavailable right now (HTTP 500); try again later: upstream exploded.');
    expect(error.retryable).toBe(true);
    expect(fake.requests).toHaveLength(3);
  });

  it('is not retried again by the runner once its own retries are spent', async () => {
    const fake = await okServer();
    fake.setNext({ status: 503 }, { status: 503 }, { status: 503 }, { status: 200, body: { ok: true } });
    await failure(callProvider(() => requestWithRetry({ ...base, url: fake.url }), undefined, [5, 5, 5]));
    expect(fake.requests).toHaveLength(3);
  });

  it('retries a dropped connection', async () => {
    const fake = await okServer();
    fake.setNext({ status: 0, dropConnection: true });
    const result = await requestWithRetry({ ...base, url: fake.url });
    expect(result.status).toBe(200);
    expect(fake.requests).toHaveLength(2);
  });

  it('explains an unreachable service', async () => {
    const fake = await okServer();
    const url = fake.url;
    await fake.close();
    const error = await failure(requestWithRetry({ ...base, url }));
    expect(error.message).toBe('Could not reach the voice service (connection refused); check the service address and the network');
    expect(error.retryable).toBe(true);
  });

  it('treats a stalled answer as a timeout', async () => {
    const fake = await okServer();
    fake.setNext({ status: 200, hang: true }, { status: 200, hang: true });
    const error = await failure(requestWithRetry({ ...base, retryDelaysMs: [5], url: fake.url, timeoutMs: 200 }));
    expect(error.message).toMatch(/^The voice service did not answer within/);
    expect(error.retryable).toBe(true);
    expect(fake.requests).toHaveLength(2);
  });

  it('cancels an in-flight request when the signal aborts', async () => {
    const fake = await okServer();
    const started = Date.now();
    await expectCancelledMidRequest(fake, (signal) => requestWithRetry({ ...base, url: fake.url, signal }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('cancels while waiting to retry', async () => {
    const fake = await okServer();
    fake.setNext({ status: 503 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(requestWithRetry({ ...base, retryDelaysMs: [10_000], url: fake.url, signal: controller.signal })).rejects.toBeInstanceOf(
      CancelledError,
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('never repeats a key the provider echoes back', async () => {
    const fake = await okServer();
    const key = 'my-very-secret-key-123';
    fake.setNext({ status: 400, body: { error: { message: `Key ${key} is not allowed for model sk-proj-abcdef1234567890` } } });
    const error = await failure(requestWithRetry({ ...base, url: fake.url, secrets: [key] }));
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain('sk-proj-abcdef');
    expect(error.message).toBe('The voice service rejected the request (HTTP 400): Key [redacted] is not allowed for model [redacted].');
  });

  it('lets a provider classify its own errors', async () => {
    const fake = await okServer();
    fake.setNext({ status: 429, body: { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } } });
    const error = await failure(
      requestWithRetry({
        ...base,
        url: fake.url,
        classifyError: (status, details) =>
          details.code === 'insufficient_quota' ? new ProviderError('out of quota', 'test', false, status) : undefined,
      }),
    );
    expect(error.message).toBe('out of quota');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('parseProviderErrorBody', () => {
  it('reads every provider error shape', () => {
    expect(parseProviderErrorBody('{"error":{"message":"Bad","type":"invalid_request_error","param":null,"code":"x"}}')).toEqual({
      code: 'x',
      message: 'Bad',
    });
    expect(parseProviderErrorBody('{"error":{"code":"401","message":"Access denied"}}')).toEqual({ code: '401', message: 'Access denied' });
    expect(parseProviderErrorBody('{"detail":{"status":"invalid_api_key","message":"Invalid API key"}}')).toEqual({
      code: 'invalid_api_key',
      message: 'Invalid API key',
    });
    expect(parseProviderErrorBody('{"detail":[{"loc":["body","text"],"msg":"Field required","type":"missing"}]}')).toEqual({
      code: 'validation_error',
      message: 'text: Field required',
    });
    expect(parseProviderErrorBody('{"error":"model \\"llama3\\" not found"}')).toEqual({ message: 'model "llama3" not found' });
    expect(parseProviderErrorBody('<html><body>502 Bad Gateway</body></html>')).toEqual({});
    expect(parseProviderErrorBody('')).toEqual({});
  });

  it('reads Retry-After as seconds, a date, or OpenAI milliseconds', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150', 'retry-after': '2' }))).toBe(150);
    const inFive = new Date(Date.now() + 5_000).toUTCString();
    expect(retryAfterMs(new Headers({ 'retry-after': inFive }))).toBeGreaterThan(3_000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });

  it('masks key-shaped tokens', () => {
    expect(redactSecrets('Incorrect API key provided: sk-abc*****wxyz.')).toBe('Incorrect API key provided: [redacted].');
  });
});
