import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import type { ImageRequest } from '../providers/types.js';
import { openAiError, startFakeOpenAiServer } from '../testing/fake-openai-server.js';
import { closedAfterTest, expectCancelledMidRequest, failureAfterThreeAttempts, rejectionOf } from '../testing/provider-test-kit.js';
import { CONTENT_POLICY_MESSAGE, createOpenAiImageProvider, nearestSize } from './openai-image-provider.js';

const API_KEY = 'sk-test-image-key-0123456789';
async function setup(options: Parameters<typeof startFakeOpenAiServer>[0] = {}, model?: string) {
  const fake = closedAfterTest(await startFakeOpenAiServer({ apiKey: API_KEY, ...options }));
  const provider = createOpenAiImageProvider({ baseUrl: fake.baseUrl, apiKey: API_KEY, model, retryDelaysMs: [5, 5] });
  const dir = await mkdtemp(join(tmpdir(), 'openai-image-'));
  const request = (overrides: Partial<ImageRequest> = {}): ImageRequest => ({
    prompt: 'A lonely lighthouse on a cliff at night',
    visualStyle: 'dark horror',
    width: 1080,
    height: 1920,
    sceneIndex: 0,
    outputPath: join(dir, 'scene-0.png'),
    ...overrides,
  });
  return { fake, provider, request };
}

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

type ImageBody = { model: string; prompt: string; size: string; n: number; response_format?: string };

describe('OpenAI image provider', () => {
  it('generates a portrait picture in the visual style and writes it as PNG', async () => {
    const { fake, provider, request } = await setup();
    const result = await provider.generateImage(request());
    expect(provider.name).toBe('openai');

    const sent = fake.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/images/generations');
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = sent.json<ImageBody>();
    expect(body).toMatchObject({ model: 'gpt-image-1', size: '1024x1536', n: 1 });
    expect(body.response_format).toBeUndefined();
    expect(body.prompt).toContain('A lonely lighthouse on a cliff at night');
    expect(body.prompt).toContain('Visual style: dark horror');
    expect(body.prompt).toContain('deep shadows');
    expect(body.prompt).toContain('no text');

    expect(result.imagePath).toBe(request().outputPath);
    expect(result.subject).toBe('lighthouse');
    expect(pngSize(await readFile(result.imagePath))).toEqual({ width: 1024, height: 1536 });
  });

  it('picks the nearest supported size for each aspect ratio and model', () => {
    expect(nearestSize('gpt-image-1', 1080, 1920)).toBe('1024x1536');
    expect(nearestSize('gpt-image-1', 1920, 1080)).toBe('1536x1024');
    expect(nearestSize('gpt-image-1', 1080, 1080)).toBe('1024x1024');
    expect(nearestSize('dall-e-3', 1080, 1920)).toBe('1024x1792');
    expect(nearestSize('dall-e-2', 1920, 1080)).toBe('1024x1024');
  });

  it('downloads a URL answer without sending the API key to it', async () => {
    const { fake, provider, request } = await setup({ imageResponse: 'url' }, 'dall-e-3');
    const result = await provider.generateImage(request({ width: 1920, height: 1080 }));
    expect(fake.requests[0]!.json<ImageBody>()).toMatchObject({ model: 'dall-e-3', size: '1792x1024', response_format: 'b64_json' });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.method).toBe('GET');
    expect(fake.requests[1]!.path).toMatch(/^\/v1\/files\//);
    expect(fake.requests[1]!.headers.authorization).toBeUndefined();
    expect(pngSize(await readFile(result.imagePath))).toEqual({ width: 1792, height: 1024 });
  });

  it('converts a JPEG answer to PNG', async () => {
    const { fake, provider, request } = await setup();
    const canvas = createCanvas(64, 32);
    canvas.getContext('2d').fillRect(0, 0, 64, 32);
    const jpeg = await canvas.encode('jpeg');
    fake.setNext({ status: 200, body: { created: 1, data: [{ b64_json: jpeg.toString('base64') }] } });
    const result = await provider.generateImage(request());
    expect(pngSize(await readFile(result.imagePath))).toEqual({ width: 64, height: 32 });
  });

  it('turns a content-policy refusal into a final, actionable error', async () => {
    const { fake, provider, request } = await setup();
    fake.setNext(
      openAiError(400, 'Your request was rejected as a result of our safety system.', 'image_generation_user_error', 'moderation_blocked'),
    );
    const error = await failure(provider.generateImage(request()));
    expect(error.message).toBe(CONTENT_POLICY_MESSAGE);
    expect(error.message).toBe("The image service refused this scene's picture (content policy). Try rephrasing the topic.");
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);

    fake.setNext(
      openAiError(400, 'Your request was rejected as a result of our safety system.', 'invalid_request_error', 'content_policy_violation'),
    );
    expect((await failure(provider.generateImage(request()))).message).toBe(CONTENT_POLICY_MESSAGE);
  });

  it('reports a rejected key without retrying', async () => {
    const { fake, request } = await setup();
    const provider = createOpenAiImageProvider({ baseUrl: fake.baseUrl, apiKey: 'sk-bad-0123456789abcdef', retryDelaysMs: [5, 5] });
    const error = await failure(provider.generateImage(request()));
    expect(error.message).toMatch(/^The image service rejected the API key/);
    expect(error.message).not.toContain('sk-bad-0123456789abcdef');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 429 and succeeds', async () => {
    const { fake, provider, request } = await setup();
    fake.setNext(openAiError(429, 'Rate limit reached for images per minute.', 'requests', 'rate_limit_exceeded', { 'Retry-After': '1' }));
    const started = Date.now();
    await provider.generateImage(request());
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests).toHaveLength(2);
  });

  it('surfaces a retryable error after three server errors', async () => {
    const { fake, provider, request } = await setup();
    const down = openAiError(503, 'The engine is currently overloaded, please try again later.', 'server_error', null);
    const error = await failureAfterThreeAttempts(fake, down, () => provider.generateImage(request()));
    expect(error.message).toBe(
      'The image service is unavailable right now (HTTP 503); try again later: The engine is currently overloaded, please try again later.',
    );
  });

  it('cancels an in-flight request', async () => {
    const { fake, provider, request } = await setup();
    await expectCancelledMidRequest(fake, (signal) => provider.generateImage(request(), signal));
  });

  it('reports health from GET /models', async () => {
    const { provider } = await setup();
    await expect(provider.health()).resolves.toEqual({ name: 'openai', status: 'healthy', details: 'Reachable; model gpt-image-1' });
  });
});
