import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import type { SynthesisResult } from '../providers/types.js';
import { getEspeakEngine } from './espeak-engine.js';
import { createOfflineVoiceProvider, OFFLINE_WORDS_PER_MINUTE } from './offline-voice-provider.js';
import { loadOfflineVoices } from './voice-catalogue.js';

const workDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-offline-voice-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));
const provider = createOfflineVoiceProvider({ ffmpegPath: '/usr/bin/ffmpeg' });

function probeDuration(file: string): number {
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { encoding: 'utf8' });
  return Number.parseFloat(out.trim());
}

function expectSaneTimings(result: SynthesisResult, expectedWords: number): void {
  expect(result.words.length).toBe(expectedWords);
  let previousStart = -1;
  for (const word of result.words) {
    expect(word.word.length).toBeGreaterThan(0);
    expect(word.start).toBeGreaterThanOrEqual(previousStart);
    expect(word.end).toBeGreaterThanOrEqual(word.start);
    expect(word.end).toBeLessThanOrEqual(result.durationSeconds + 1e-6);
    previousStart = word.start;
  }
  // Words are spread over the audio, not piled up at the start.
  expect(result.words.at(-1)!.start).toBeGreaterThan(result.durationSeconds * 0.5);
}

const samples = [
  {
    language: 'en',
    voiceId: 'en-us-m3',
    text: 'The old lighthouse keeper had a secret. Nobody in the village knew what he saw at night.',
    words: 17,
  },
  {
    language: 'hi',
    voiceId: 'hi-in-f3',
    text: 'पुराने प्रकाशस्तंभ के रखवाले के पास एक रहस्य था। गाँव में कोई नहीं जानता था कि वह रात में क्या देखता था।',
    words: 22,
  },
  {
    language: 'ja',
    voiceId: 'ja-jp-m3',
    text: '古い灯台守には秘密がありました。村の誰も、彼が夜に何を見ていたのか知りませんでした。',
    words: undefined,
  },
] as const;

describe('offline voice (espeak-ng)', () => {
  it('names itself, reports health and a measured speaking rate', async () => {
    expect(provider.name).toBe('offline');
    expect(provider.wordsPerMinute).toBe(OFFLINE_WORDS_PER_MINUTE);
    expect((await provider.health()).status).toBe('healthy');
  });

  it.each(samples)('speaks $language into a WAV with word timings', async ({ language, voiceId, text, words }) => {
    const outputPath = path.join(workDir, `${language}.wav`);
    const result = await provider.synthesize({ text, voiceId, language, outputPath });
    expect(result.audioPath).toBe(outputPath);
    expect(readFileSync(outputPath).subarray(0, 4).toString('ascii')).toBe('RIFF');
    const probed = probeDuration(outputPath);
    expect(Math.abs(probed - result.durationSeconds)).toBeLessThan(0.05);
    // Speech-length audio: roughly 2-4 words (or 5-12 Japanese characters) a second.
    expect(probed).toBeGreaterThan(3);
    expect(probed).toBeLessThan(12);
    expectSaneTimings(result, words ?? result.words.length);
    if (language === 'ja') {
      // Captions keep the original writing; espeak heard the kana reading.
      expect(result.words.map((word) => word.word).join('')).toBe(text);
      expect(result.words.length).toBeGreaterThan(8);
    }
  });

  it('writes MP3 through ffmpeg when asked for .mp3', async () => {
    const outputPath = path.join(workDir, 'short.mp3');
    const result = await provider.synthesize({ text: 'Hello there, creator.', voiceId: 'en-gb-f1', language: 'en', outputPath });
    expect(statSync(outputPath).size).toBeGreaterThan(1000);
    expect(Math.abs(probeDuration(outputPath) - result.durationSeconds)).toBeLessThan(0.15);
  });

  it('runs concurrent calls (one espeak thread per core), each getting its own voice and text', async () => {
    const texts = ['One two three.', 'Four five six seven eight nine ten eleven twelve.', 'Thirteen.'];
    const voices = ['en-us-m3', 'en-us-f3', 'en-gb-m1'];
    const results = await Promise.all(
      texts.map((text, index) =>
        provider.synthesize({ text, voiceId: voices[index]!, language: 'en', outputPath: path.join(workDir, `c${index}.wav`) }),
      ),
    );
    results.forEach((result, index) => {
      expect(result.words.map((word) => word.word)).toEqual(texts[index]!.split(' '));
      expect(probeDuration(result.audioPath)).toBeCloseTo(result.durationSeconds, 1);
    });
    expect(results[1]!.durationSeconds).toBeGreaterThan(results[0]!.durationSeconds * 2);
    // Same request alone gives the same audio length: no state leaked between the parallel calls.
    // It may run on another thread than before, whose espeak ended its last utterance elsewhere:
    // lengths then differ by a few samples of trailing silence (0.6 ms measured), never by a word.
    const again = await provider.synthesize({
      text: texts[0]!,
      voiceId: voices[0]!,
      language: 'en',
      outputPath: path.join(workDir, 'again.wav'),
    });
    expect(again.durationSeconds).toBeCloseTo(results[0]!.durationSeconds, 2);
  });

  it('every catalogue voice produces speech', async () => {
    const engine = getEspeakEngine();
    for (const voice of loadOfflineVoices()) {
      const output = await engine.synthesize({
        voice: `${voice.espeakVoice}+${voice.variant}`,
        rate: voice.speed,
        pitch: voice.pitch,
        range: voice.pitchRange,
        text: 'one two three',
      });
      expect(output.samples.length / output.sampleRate, voice.id).toBeGreaterThan(0.3);
    }
  });

  it('rejects an unknown voice with a final ProviderError', async () => {
    const attempt = provider.synthesize({ text: 'Hi', voiceId: 'xx-nobody', language: 'en', outputPath: path.join(workDir, 'x.wav') });
    await expect(attempt).rejects.toBeInstanceOf(ProviderError);
    await expect(attempt).rejects.toMatchObject({ message: 'Unknown voice xx-nobody', retryable: false });
  });

  it('stops when cancelled and keeps working afterwards', async () => {
    const controller = new AbortController();
    const long = 'This sentence is long enough to keep the engine busy for a moment. '.repeat(40);
    const attempt = provider.synthesize(
      { text: long, voiceId: 'en-us-m3', language: 'en', outputPath: path.join(workDir, 'cancel.wav') },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 5);
    await expect(attempt).rejects.toThrow('cancelled');
    const after = await provider.synthesize({
      text: 'Still here.',
      voiceId: 'en-us-m3',
      language: 'en',
      outputPath: path.join(workDir, 'after.wav'),
    });
    expect(after.words.map((word) => word.word)).toEqual(['Still', 'here.']);
  });
});
