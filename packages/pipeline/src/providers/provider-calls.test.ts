import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError, ProviderError } from '../errors.js';
import { loadPipelineConfig } from '../pipeline-config.js';
import { createProviderRegistry } from '../provider-registry.js';
import { WikimediaError } from '../research/wikimedia-client.js';
import { observedProvider, providerCallErrorCode, type ProviderCall } from './provider-calls.js';
import type { StoryProvider, StoryRequest } from './types.js';

const request: StoryRequest = {
  topic: 'Why bees dance',
  style: 'educational',
  language: 'en',
  durationSeconds: 30,
  visualStyle: 'cinematic',
  customPrompt: '',
  sceneCount: 4,
  targetWords: 70,
};

describe('providerCallErrorCode', () => {
  it('sorts failures into the few codes a metric label may carry', () => {
    expect(providerCallErrorCode(new ProviderError('no', 'openai', false, 401))).toBe('auth');
    expect(providerCallErrorCode(new ProviderError('no', 'azure', false, 403))).toBe('auth');
    expect(providerCallErrorCode(new ProviderError('slow down', 'openai', true, 429))).toBe('rate_limited');
    expect(providerCallErrorCode(new ProviderError('down', 'openai', true, 503))).toBe('unavailable');
    expect(providerCallErrorCode(new ProviderError('no answer', 'openai', true))).toBe('unavailable');
    expect(providerCallErrorCode(new ProviderError('bad prompt', 'openai', false, 400))).toBe('rejected');
    expect(providerCallErrorCode(new ProviderError('unreadable answer', 'openai', false))).toBe('other');
    expect(providerCallErrorCode(new WikimediaError('answered HTTP 502', { status: 502 }))).toBe('unavailable');
    expect(providerCallErrorCode(new WikimediaError('could not be reached', { cause: new TypeError('fetch failed') }))).toBe('unavailable');
    expect(providerCallErrorCode(new CancelledError())).toBe('aborted');
    expect(providerCallErrorCode(new DOMException('stopped', 'AbortError'))).toBe('aborted');
    expect(providerCallErrorCode(new DOMException('late', 'TimeoutError'))).toBe('unavailable');
    expect(providerCallErrorCode(new Error('anything'), AbortSignal.abort())).toBe('aborted');
    expect(providerCallErrorCode(new Error('anything'))).toBe('other');
  });
});

describe('observedProvider', () => {
  it('times the calls it is told to, reports their failures, and is otherwise the provider itself', async () => {
    const calls: ProviderCall[] = [];
    let fail: Error | null = null;
    const story: StoryProvider = {
      name: 'fake',
      health: async () => ({ name: 'fake', status: 'healthy', details: '' }),
      writeStory: async (asked) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (fail) throw fail;
        return { title: asked.topic, scenes: [] };
      },
    };
    const observed = observedProvider(story, 'story', 'openai', ['writeStory'], (call) => calls.push(call));
    expect(observed.name).toBe('fake');
    expect(await observed.writeStory(request)).toEqual({ title: 'Why bees dance', scenes: [] });
    fail = new ProviderError('slow down', 'openai', true, 429);
    await expect(observed.writeStory(request)).rejects.toBe(fail);
    await observed.health();
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ kind: 'story', provider: 'openai' });
    expect(calls[0]!.error).toBeUndefined();
    expect(calls[0]!.seconds).toBeGreaterThanOrEqual(0.015);
    expect(calls[1]).toMatchObject({ kind: 'story', provider: 'openai', error: 'rate_limited' });
    // The same wrapped function each time (callers may keep it).
    expect(observed.writeStory).toBe(observed.writeStory);
  });

  it('never lets an observer that throws fail the call', async () => {
    const story: StoryProvider = {
      name: 'fake',
      health: async () => ({ name: 'fake', status: 'healthy', details: '' }),
      writeStory: async () => ({ title: 't', scenes: [] }),
    };
    const observed = observedProvider(story, 'story', 'offline', ['writeStory'], () => {
      throw new Error('metrics broke');
    });
    await expect(observed.writeStory(request)).resolves.toEqual({ title: 't', scenes: [] });
  });
});

describe('the provider registry', () => {
  /** A Wikipedia API that answers 503 to everything (no retry: it asks for more than the client waits). */
  let server: Server;
  let apiUrl: string;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(503, { 'retry-after': '0' }).end('down');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/w/api.php`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reports its providers' calls to its observers by kind and id, until they stop listening", async () => {
    const registry = createProviderRegistry(
      loadPipelineConfig({
        VOICE_PROVIDER: 'offline',
        VOICE_MODEL_URL: 'off',
        RESEARCH_PROVIDER: 'wikipedia',
        WIKIPEDIA_API_URL: apiUrl,
        COMMONS_API_URL: apiUrl,
      }),
    );
    const calls: ProviderCall[] = [];
    const stop = registry.observeCalls((call) => calls.push(call));
    await registry.providersFor().story.writeStory(request);
    const research = registry.research()!;
    await expect(research.findArticles('bees', 'en', AbortSignal.timeout(10_000))).rejects.toThrow();
    expect(calls.map(({ kind, provider, error }) => ({ kind, provider, error }))).toEqual([
      { kind: 'story', provider: 'offline', error: undefined },
      { kind: 'research', provider: 'wikipedia', error: 'unavailable' },
    ]);
    // The same provider object whichever way it is asked for.
    expect(registry.storyProvider()).toBe(registry.story);
    expect(registry.research()).toBe(research);
    stop();
    await registry.story.writeStory(request);
    expect(calls).toHaveLength(2);
  }, 30_000);
});
