import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { AZURE_ACCESS_DENIED, startFakeAzureSpeechServer } from '../testing/fake-azure-speech-server.js';
import { closedAfterTest, expectCancelledMidRequest, failureAfterThreeAttempts, rejectionOf } from '../testing/provider-test-kit.js';
import { probeAudioDuration } from './audio-duration.js';
import { buildSsml, createAzureVoiceProvider } from './azure-voice-provider.js';

const KEY = 'azure-speech-key-0123456789abcdef';
async function setup(audioFormat?: 'mp3' | 'wav') {
  const fake = closedAfterTest(await startFakeAzureSpeechServer({ key: KEY }));
  const provider = createAzureVoiceProvider({ key: KEY, endpoint: fake.url, audioFormat, retryDelaysMs: [5, 5] });
  const dir = await mkdtemp(join(tmpdir(), 'azure-voice-'));
  return { fake, provider, dir };
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

const text = 'Tom & Jerry said "<hello>" to the storm. It did not answer, and the night went on.';

describe('Azure voice provider', () => {
  it('sends SSML with the documented headers and writes real MP3 with estimated timings', async () => {
    const { fake, provider, dir } = await setup();
    const result = await provider.synthesize({ text, voiceId: 'en-GB-SoniaNeural', language: 'en', outputPath: join(dir, 'voice.mp3') });

    expect(provider.name).toBe('azure');
    expect(provider.wordsPerMinute).toBe(150);
    const sent = fake.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/cognitiveservices/v1');
    expect(sent.headers['ocp-apim-subscription-key']).toBe(KEY);
    expect(sent.headers['content-type']).toBe('application/ssml+xml');
    expect(sent.headers['x-microsoft-outputformat']).toBe('audio-24khz-48kbitrate-mono-mp3');
    expect(sent.headers['user-agent']).toBe('reelsmith');
    expect(sent.text).toBe(
      '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-GB"><voice name="en-GB-SoniaNeural">' +
        'Tom &amp; Jerry said &quot;&lt;hello&gt;&quot; to the storm. It did not answer, and the night went on.</voice></speak>',
    );

    expect(result.audioPath).toBe(join(dir, 'voice.mp3'));
    const audio = await readFile(result.audioPath);
    expect(audio.subarray(0, 3).toString('latin1') === 'ID3' || (audio[0] === 0xff && (audio[1]! & 0xe0) === 0xe0)).toBe(true);
    expect(result.durationSeconds).toBeCloseTo(await probeAudioDuration(result.audioPath), 3);
    expect(result.durationSeconds).toBeGreaterThan(6);

    const { words } = result;
    expect(words.map((word) => word.word)[0]).toBe('Tom');
    expect(words).toHaveLength(17);
    expect(words[0]!.start).toBe(0);
    expect(words.at(-1)!.end).toBeCloseTo(result.durationSeconds, 3);
    for (let index = 1; index < words.length; index += 1) {
      expect(words[index]!.start).toBeGreaterThanOrEqual(words[index - 1]!.end);
      expect(words[index]!.end).toBeGreaterThan(words[index]!.start);
    }
  });

  it('writes WAV when asked and fixes the extension', async () => {
    const { fake, provider, dir } = await setup('wav');
    const result = await provider.synthesize({
      text: '今日はいい天気ですね。',
      voiceId: 'ja-JP-NanamiNeural',
      language: 'ja',
      outputPath: join(dir, 'voice.audio'),
    });
    expect(fake.requests[0]!.headers['x-microsoft-outputformat']).toBe('riff-24khz-16bit-mono-pcm');
    expect(fake.requests[0]!.text).toContain('xml:lang="ja-JP"');
    expect(result.audioPath).toBe(join(dir, 'voice.wav'));
    expect((await readFile(result.audioPath)).subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(result.words.length).toBeGreaterThan(1);
    expect(result.words.at(-1)!.end).toBeCloseTo(result.durationSeconds, 3);
  });

  it('uses the language for xml:lang when the voice name has no locale', () => {
    expect(buildSsml('hi', 'CustomVoice', 'hi')).toContain('xml:lang="hi-IN"');
  });

  it('reports a rejected key once, without the key', async () => {
    const { fake, provider, dir } = await setup();
    fake.setNext(AZURE_ACCESS_DENIED);
    const error = await failure(
      provider.synthesize({ text, voiceId: 'en-US-JennyNeural', language: 'en', outputPath: join(dir, 'v.mp3') }),
    );
    expect(error.message).toMatch(
      /^The voice service rejected the API key: Access denied due to invalid subscription key or wrong API endpoint/,
    );
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);

    const wrongKey = createAzureVoiceProvider({ key: 'other-key', endpoint: fake.url, retryDelaysMs: [5] });
    const again = await failure(
      wrongKey.synthesize({ text, voiceId: 'en-US-JennyNeural', language: 'en', outputPath: join(dir, 'v.mp3') }),
    );
    expect(again.status).toBe(401);
    expect(again.message).not.toContain('other-key');
  });

  it('retries 429 with Retry-After, then succeeds', async () => {
    const { fake, provider, dir } = await setup();
    fake.setNext({ status: 429, headers: { 'Retry-After': '1' } });
    const started = Date.now();
    const result = await provider.synthesize({
      text: 'Short line.',
      voiceId: 'en-US-JennyNeural',
      language: 'en',
      outputPath: join(dir, 'v.mp3'),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result.words.map((word) => word.word)).toEqual(['Short', 'line.']);
    expect(fake.requests).toHaveLength(2);
  });

  it('surfaces a retryable error after three 502s', async () => {
    const { fake, provider, dir } = await setup();
    const error = await failureAfterThreeAttempts(fake, { status: 502 }, () =>
      provider.synthesize({ text, voiceId: 'en-US-JennyNeural', language: 'en', outputPath: join(dir, 'v.mp3') }),
    );
    expect(error.message).toBe('The voice service is unavailable right now (HTTP 502); try again later');
  });

  it('cancels an in-flight synthesis', async () => {
    const { fake, provider, dir } = await setup();
    await expectCancelledMidRequest(fake, (signal) =>
      provider.synthesize({ text, voiceId: 'en-US-JennyNeural', language: 'en', outputPath: join(dir, 'v.mp3') }, signal),
    );
  });

  it('checks health through the voices list', async () => {
    const { fake, provider } = await setup();
    await expect(provider.health()).resolves.toEqual({ name: 'azure', status: 'healthy', details: 'Reachable; 4 voices available' });
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/cognitiveservices/voices/list' });
    const bad = createAzureVoiceProvider({ key: 'nope', endpoint: fake.url });
    await expect(bad.health()).resolves.toMatchObject({ status: 'error', details: expect.stringMatching(/rejected the API key/) });
  });

  it('builds the regional endpoint', async () => {
    const urls: string[] = [];
    const recordingFetch: typeof fetch = async (input) => {
      urls.push(String(input));
      return new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    const provider = createAzureVoiceProvider({ key: KEY, region: 'westeurope', fetch: recordingFetch });
    await provider.health();
    expect(urls).toEqual(['https://westeurope.tts.speech.microsoft.com/cognitiveservices/voices/list']);
  });
});
