import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { elevenLabsError, startFakeElevenLabsServer } from '../testing/fake-elevenlabs-server.js';
import type { FakeServer } from '../testing/fake-http-server.js';
import { closedAfterTest, expectCancelledMidRequest, failureAfterThreeAttempts, rejectionOf } from '../testing/provider-test-kit.js';
import { createElevenLabsVoiceProvider } from './elevenlabs-voice-provider.js';

const KEY = 'xi-test-key-0123456789abcdef';
const VOICE = '21m00Tcm4TlvDq8ikWAM';
async function setup(modelId?: string) {
  const fake = closedAfterTest(await startFakeElevenLabsServer({ apiKey: KEY, voiceIds: [VOICE] }));
  const provider = createElevenLabsVoiceProvider({ apiKey: KEY, baseUrl: fake.url, modelId, retryDelaysMs: [5, 5] });
  const dir = await mkdtemp(join(tmpdir(), 'elevenlabs-voice-'));
  return { fake, provider, dir };
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

type Alignment = { characters: string[]; character_start_times_seconds: number[]; character_end_times_seconds: number[] };

describe('ElevenLabs voice provider', () => {
  it('requests speech with timestamps and turns the alignment into English words', async () => {
    const { fake, provider, dir } = await setup();
    const text = 'The storm came at midnight. Nobody slept.';
    const result = await provider.synthesize({ text, voiceId: VOICE, language: 'en', outputPath: join(dir, 'voice.mp3') });

    expect(provider.name).toBe('elevenlabs');
    const sent = fake.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe(`/v1/text-to-speech/${VOICE}/with-timestamps?output_format=mp3_44100_128`);
    expect(sent.headers['xi-api-key']).toBe(KEY);
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.json()).toEqual({ text, model_id: 'eleven_multilingual_v2' });

    const audio = await readFile(result.audioPath);
    expect(audio.length).toBeGreaterThan(1000);
    expect(result.durationSeconds).toBeGreaterThan(2.5);

    expect(result.words.map((word) => word.word)).toEqual(['The', 'storm', 'came', 'at', 'midnight.', 'Nobody', 'slept.']);
    // Times come from the alignment the service returned: "storm" is characters 4..8.
    const alignment = await replayAlignment(fake, text);
    expect(result.words[1]).toEqual({
      word: 'storm',
      start: alignment.character_start_times_seconds[4],
      end: alignment.character_end_times_seconds[8],
    });
    expect(result.words.at(-1)!.end).toBeLessThanOrEqual(result.durationSeconds);
  });

  it('groups Japanese characters into caption words', async () => {
    const { provider, dir } = await setup();
    const text = '今日はいい天気ですね。散歩に行きましょう！';
    const result = await provider.synthesize({ text, voiceId: VOICE, language: 'ja', outputPath: join(dir, 'voice.mp3') });
    expect(result.words.map((word) => word.word).join('')).toBe(text);
    expect(result.words.length).toBeGreaterThanOrEqual(4);
    expect(result.words.length).toBeLessThan(Array.from(text).length);
    for (let index = 1; index < result.words.length; index += 1) {
      expect(result.words[index]!.start).toBeGreaterThanOrEqual(result.words[index - 1]!.end);
    }
  });

  it('sends language_code only to models that accept it and always writes MP3', async () => {
    const { fake, provider, dir } = await setup('eleven_flash_v2_5');
    const result = await provider.synthesize({ text: 'Hola amigos.', voiceId: VOICE, language: 'es', outputPath: join(dir, 'voice.wav') });
    expect(fake.requests[0]!.json()).toEqual({ text: 'Hola amigos.', model_id: 'eleven_flash_v2_5', language_code: 'es' });
    expect(result.audioPath).toBe(join(dir, 'voice.mp3'));
  });

  it('falls back to estimated timings when no alignment comes back', async () => {
    const { fake, provider, dir } = await setup();
    const audio = (await fetch(`${fake.url}/v1/text-to-speech/${VOICE}/with-timestamps`, {
      method: 'POST',
      headers: { 'xi-api-key': KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'one two three' }),
    }).then((response) => response.json())) as { audio_base64: string };
    fake.setNext({ status: 200, body: { audio_base64: audio.audio_base64, alignment: null, normalized_alignment: null } });
    const result = await provider.synthesize({ text: 'one two three', voiceId: VOICE, language: 'en', outputPath: join(dir, 'v.mp3') });
    expect(result.words.map((word) => word.word)).toEqual(['one', 'two', 'three']);
    expect(result.words.at(-1)!.end).toBeCloseTo(result.durationSeconds, 3);
  });

  it('reports an invalid key once and never shows it', async () => {
    const { fake, dir } = await setup();
    const provider = createElevenLabsVoiceProvider({ apiKey: 'xi-wrong-0123456789', baseUrl: fake.url, retryDelaysMs: [5, 5] });
    const error = await failure(provider.synthesize({ text: 'Hi', voiceId: VOICE, language: 'en', outputPath: join(dir, 'v.mp3') }));
    expect(error.message).toBe('The voice service rejected the API key: Invalid API key.');
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('explains an exhausted quota, an unknown voice and a validation error', async () => {
    const { fake, provider, dir } = await setup();
    const out = join(dir, 'v.mp3');
    fake.setNext(
      elevenLabsError(
        401,
        'quota_exceeded',
        'This request exceeds your quota of 10000. You have 0 credits remaining, while 91 credits are required for this request.',
      ),
    );
    const quota = await failure(provider.synthesize({ text: 'Hi', voiceId: VOICE, language: 'en', outputPath: out }));
    expect(quota.message).toMatch(/^The voice service account has run out of characters/);
    expect(quota.retryable).toBe(false);

    const unknown = await failure(provider.synthesize({ text: 'Hi', voiceId: 'nope', language: 'en', outputPath: out }));
    expect(unknown.message).toBe('The voice service does not know the chosen voice; pick another voice');

    const invalid = await failure(provider.synthesize({ text: '', voiceId: VOICE, language: 'en', outputPath: out }));
    expect(invalid.message).toBe('The voice service rejected the request (HTTP 422): text: Field required.');
  });

  it('retries when busy, honouring Retry-After', async () => {
    const { fake, provider, dir } = await setup();
    fake.setNext(elevenLabsError(429, 'too_many_concurrent_requests', 'Too many concurrent requests.', { 'Retry-After': '1' }));
    const started = Date.now();
    await provider.synthesize({ text: 'Hi there', voiceId: VOICE, language: 'en', outputPath: join(dir, 'v.mp3') });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests).toHaveLength(2);
  });

  it('surfaces a retryable error after three server errors', async () => {
    const { fake, provider, dir } = await setup();
    const busy = elevenLabsError(503, 'system_busy', 'We are experiencing heavy traffic, please try again.');
    const error = await failureAfterThreeAttempts(fake, busy, () =>
      provider.synthesize({ text: 'Hi', voiceId: VOICE, language: 'en', outputPath: join(dir, 'v.mp3') }),
    );
    expect(error.message).toBe(
      'The voice service is unavailable right now (HTTP 503); try again later: We are experiencing heavy traffic, please try again.',
    );
  });

  it('cancels an in-flight request', async () => {
    const { fake, provider, dir } = await setup();
    await expectCancelledMidRequest(fake, (signal) =>
      provider.synthesize({ text: 'Hi', voiceId: VOICE, language: 'en', outputPath: join(dir, 'v.mp3') }, signal),
    );
  });

  it('checks health through the models list', async () => {
    const { fake, provider } = await setup();
    await expect(provider.health()).resolves.toEqual({
      name: 'elevenlabs',
      status: 'healthy',
      details: 'Reachable; model eleven_multilingual_v2',
    });
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    const bad = createElevenLabsVoiceProvider({ apiKey: 'nope', baseUrl: fake.url });
    await expect(bad.health()).resolves.toMatchObject({
      status: 'error',
      details: 'The voice service rejected the API key: Invalid API key.',
    });
  });
});

/** The fake's alignment for a text, fetched the way the provider does, to compare timings exactly. */
async function replayAlignment(fake: FakeServer, text: string): Promise<Alignment> {
  const response = await fetch(`${fake.url}/v1/text-to-speech/${VOICE}/with-timestamps`, {
    method: 'POST',
    headers: { 'xi-api-key': KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  return ((await response.json()) as { alignment: Alignment }).alignment;
}
