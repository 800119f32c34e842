import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../audio/wav.js';
import { startFakeModelHost, type FakeModelHost } from '../testing/fake-model-host.js';
import { tempFoldersForFile } from '../testing/temp-folders.js';
import { TINY_SAMPLES_PER_TOKEN, manifestFor, tinyKokoroFiles } from '../testing/tiny-kokoro-model.js';
import { getKokoroVoice } from './kokoro-voices.js';
import { NeuralVoiceModel } from './neural-voice-model.js';
import { createNeuralVoiceProvider, substituteVoice } from './neural-voice-provider.js';
import { createOfflineVoiceProvider } from './offline-voice-provider.js';

const TEXT = 'Octopuses have three hearts. Two pump blood to the gills, and one to the body!';
const freshDir = tempFoldersForFile('reelsmith-neural-');
let host: FakeModelHost;
let manifestPath: string;

beforeAll(async () => {
  const files = tinyKokoroFiles({ durations: true });
  host = await startFakeModelHost({ files });
  manifestPath = path.join(freshDir(), 'manifest.json');
  await writeFile(manifestPath, JSON.stringify(manifestFor(files)));
});
afterAll(() => host.close());

describe('the neural voice provider', () => {
  it('speaks a natural voice with espeak, and says why, while the model is not there', async () => {
    const dir = freshDir();
    const model = new NeuralVoiceModel({ modelsDir: dir, modelUrl: host.url, manifestPath });
    const provider = createNeuralVoiceProvider({ model, fallback: createOfflineVoiceProvider() });
    const result = await provider.synthesize({
      text: TEXT,
      voiceId: 'kokoro-af-heart',
      language: 'en',
      outputPath: path.join(dir, 'a.wav'),
    });
    expect(result.note).toBe(
      'Natural voices are not downloaded yet (npm run voices:download): narrated with the basic voice instead of Heart.',
    );
    expect(result.words.map((word) => word.word)).toEqual(TEXT.split(' '));
    // espeak's own rate, not Kokoro's.
    expect(decodeWav(await readFile(result.audioPath)).sampleRate).not.toBe(24_000);
    expect(substituteVoice(getKokoroVoice('kokoro-bm-george')!)).toMatch(/^en-/);
    // A basic voice chosen on purpose is no stand-in: no note.
    const basic = await provider.synthesize({
      text: 'Hello there.',
      voiceId: substituteVoice(getKokoroVoice('kokoro-af-heart')!)!,
      language: 'en',
      outputPath: path.join(dir, 'b.wav'),
    });
    expect(basic.note).toBeUndefined();
    expect((await provider.health()).details).toMatch(/not downloaded yet.*espeak-ng meanwhile/);
    model.close();
  });

  it('narrates through the model once downloaded: 24 kHz, the duration of its tokens, each word on its own tokens', async () => {
    const dir = freshDir();
    const model = new NeuralVoiceModel({ modelsDir: dir, modelUrl: host.url, manifestPath });
    const provider = createNeuralVoiceProvider({ model, fallback: createOfflineVoiceProvider() });
    expect(await model.download()).toBe(true);
    expect(model.status()).toMatchObject({ state: 'ready', progress: 100 });
    try {
      const result = await provider.synthesize({
        text: TEXT,
        voiceId: 'kokoro-af-heart',
        language: 'en',
        outputPath: path.join(dir, 'n.wav'),
      });
      expect(result.note).toBeUndefined();
      const wav = decodeWav(await readFile(result.audioPath));
      expect(wav.sampleRate).toBe(24_000);
      const samples = wav.samples.length;
      expect(result.durationSeconds).toBeCloseTo(samples / 24_000, 6);
      // The tiny model speaks TINY_SAMPLES_PER_TOKEN per token, pads included; the tone starts and ends loud, so trimming keeps it all.
      expect(samples % TINY_SAMPLES_PER_TOKEN).toBe(0);
      const tokens = samples / TINY_SAMPLES_PER_TOKEN;
      expect(tokens).toBeGreaterThan(TEXT.length * 0.6);

      expect(result.words.map((word) => word.word)).toEqual(TEXT.split(' '));
      let previousEnd = 0;
      for (const word of result.words) {
        expect(word.start).toBeGreaterThanOrEqual(previousEnd - 1e-9);
        expect(word.end).toBeGreaterThan(word.start);
        previousEnd = word.end;
      }
      expect(previousEnd).toBeLessThanOrEqual(result.durationSeconds + 1e-9);
      // Each word lasts as long as its own phonemes: "Octopuses" (9 letters) outlasts "to" (2).
      const length = (w: string) => result.words.filter((word) => word.word === w).map((word) => word.end - word.start)[0]!;
      expect(length('Octopuses')).toBeGreaterThan(length('to') * 2.5);
      // The first word starts after the opening pad's frames (2 frames = one token).
      expect(result.words[0]!.start).toBeCloseTo(TINY_SAMPLES_PER_TOKEN / 24_000, 6);

      expect(await provider.speechSecondsFor!(TEXT, 'kokoro-af-heart', 'en')).toBeCloseTo(result.durationSeconds, 6);
      expect(await provider.wordsPerMinuteFor!('kokoro-af-heart', 'en')).toBeGreaterThan(0);
      expect((await provider.health()).details).toMatch(/^Kokoro-82M \(onnx\/model\.onnx\)/);
    } finally {
      model.close();
    }
  });
});
