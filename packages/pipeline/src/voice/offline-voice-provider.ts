import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodeWav } from '../audio/wav.js';
import { CancelledError, ProviderError, throwIfAborted } from '../errors.js';
import type { SynthesisRequest, SynthesisResult, VoiceProvider, WordTiming } from '../providers/types.js';
import { getEspeakEngine } from './espeak-engine.js';
import { japaneseSpeechWords } from './espeak-japanese-reading.js';
import { buildSpeechText, timingsFromEvents, type SpeechWord } from './offline-word-timings.js';
import { estimateTimingsForWords } from './word-timing-estimate.js';
import { tokenizeWords } from './word-timing-tokenize.js';
import { countNarrationWords } from '../story/story-budget.js';
import { writeVoiceAudio } from './voice-audio-file.js';
import { getOfflineVoice, loadOfflineVoices, type OfflineVoice } from './voice-catalogue.js';

const PROVIDER = 'offline';

/**
 * Budgeting rate for English narration. Measured with the pauses between sentences included, the
 * English voices speak the offline writer's text at 166 (the slow senior voices) to 185 wpm, 178 on
 * average; 170 keeps even the slow voices inside the duration. Other languages are scaled by
 * story-budget's LANGUAGE_RATE_FACTORS.
 */
export const OFFLINE_WORDS_PER_MINUTE = 170;

/**
 * A few sentences in the offline writer's register per language: speaking one tells how fast a
 * voice really goes in that language, so the story is budgeted for that voice (story-budget).
 */
const CALIBRATION_TEXTS: Record<string, string> = {
  en: 'Some questions seem simple at first. Then you look a little closer, and every answer opens a new door. Today we follow one of those questions, step by step, and see where it leads.',
  de: 'Manche Fragen wirken zuerst ganz einfach. Doch wer genauer hinsieht, findet hinter jeder Antwort eine neue Tür. Heute folgen wir einer solchen Frage, Schritt für Schritt, und sehen, wohin sie führt.',
  es: 'Algunas preguntas parecen sencillas al principio. Pero si miras un poco más de cerca, cada respuesta abre una nueva puerta. Hoy seguimos una de esas preguntas, paso a paso, para ver adónde nos lleva.',
  fr: "Certaines questions semblent simples au premier abord. Mais si l'on regarde d'un peu plus près, chaque réponse ouvre une nouvelle porte. Aujourd'hui, nous suivons l'une de ces questions, pas à pas, pour voir où elle mène.",
  pt: 'Algumas perguntas parecem simples à primeira vista. Mas, se olharmos um pouco mais de perto, cada resposta abre uma nova porta. Hoje seguimos uma dessas perguntas, passo a passo, para ver aonde ela nos leva.',
  hi: 'कुछ सवाल पहली नज़र में आसान लगते हैं। लेकिन ज़रा ध्यान से देखें, तो हर जवाब एक नया दरवाज़ा खोल देता है। आज हम ऐसे ही एक सवाल के पीछे चलेंगे, कदम दर कदम, और देखेंगे कि वह हमें कहाँ ले जाता है।',
  ja: '最初はとても簡単に見える疑問があります。けれども少し近くで見てみると、答えのひとつひとつが新しい扉を開いていきます。今日はそんな疑問のひとつを、一歩ずつたどっていきましょう。',
};
/** Measured once per voice and language in a process. */
const measuredRates = new Map<string, number>();

/**
 * Measured paces outlive the process: speaking the calibration text costs a second of CPU (most of a
 * fresh process's setup step) and gives the same figure every time for the same voice, text and
 * engine, so it is kept in a file named by a hash of all three (the music beds are kept the same way).
 */
const PACE_DIR = path.join(tmpdir(), 'reelsmith-voice-pace');
const ESPEAK_VERSION = (() => {
  try {
    return (createRequire(import.meta.url)('@echogarden/espeak-ng-emscripten/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
})();

function pacePath(voice: OfflineVoice, text: string): string {
  const key = createHash('sha256')
    .update(JSON.stringify({ format: 1, espeak: ESPEAK_VERSION, voice, text }))
    .digest('hex')
    .slice(0, 24);
  return path.join(PACE_DIR, `${voice.id}-${key}.json`);
}

async function readKeptPace(file: string): Promise<number | null> {
  try {
    const { wordsPerMinute } = JSON.parse(await readFile(file, 'utf8')) as { wordsPerMinute?: unknown };
    return typeof wordsPerMinute === 'number' && Number.isFinite(wordsPerMinute) && wordsPerMinute > 0 ? wordsPerMinute : null;
  } catch {
    return null;
  }
}

async function keepPace(file: string, wordsPerMinute: number): Promise<void> {
  // Written whole and renamed, so a reader in another process never sees half a file.
  const partial = `${file}.${process.pid}.partial`;
  try {
    await mkdir(PACE_DIR, { recursive: true });
    await writeFile(partial, JSON.stringify({ wordsPerMinute }));
    await rename(partial, file);
  } catch {
    // A cache that cannot be written only costs the next process the measurement.
    await rm(partial, { force: true });
  }
}

/** Characters espeak's SSML parser would swallow, and emoji it would read aloud by name. */
const UNSPEAKABLE = /[<>&\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu;

function defaultFfmpegPath(): string {
  try {
    const require = createRequire(import.meta.url);
    return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    return 'ffmpeg';
  }
}

async function speechWordsFor(text: string, language: string): Promise<SpeechWord[]> {
  if (language === 'ja') return japaneseSpeechWords(text);
  return tokenizeWords(text, language).map(({ word }) => ({ display: word, spoken: word.replace(UNSPEAKABLE, ' ') }));
}

export function createOfflineVoiceProvider(opts: { ffmpegPath?: string } = {}): VoiceProvider {
  const ffmpegPath = opts.ffmpegPath ?? defaultFfmpegPath();
  const engine = getEspeakEngine();

  const writeAudio = (outputPath: string, wav: Buffer, signal?: AbortSignal): Promise<void> =>
    writeVoiceAudio(outputPath, wav, {
      ffmpegPath,
      signal,
      encodeFailed: (error) =>
        new ProviderError('The offline voice could not encode its audio', PROVIDER, false, undefined, { cause: error }),
    });

  /** espeak's samples and word events for `text` in `voice`, nothing written to disk. */
  async function speak(voice: OfflineVoice, text: string, signal?: AbortSignal) {
    // The voice decides the pronunciation; a mismatched request language only affects segmentation.
    const words = (await speechWordsFor(text, voice.language)).filter((word) => word.display.length > 0);
    const { text: speechText, offsets } = buildSpeechText(words);
    try {
      const output = await engine.synthesize(
        {
          voice: `${voice.espeakVoice}+${voice.variant}`,
          rate: voice.speed,
          pitch: voice.pitch,
          range: voice.pitchRange,
          text: speechText,
        },
        signal,
      );
      return { ...output, words, offsets };
    } catch (error) {
      if (error instanceof CancelledError || signal?.aborted) throw new CancelledError();
      throw new ProviderError('The offline voice failed to speak the narration', PROVIDER, false, undefined, { cause: error });
    }
  }

  return {
    name: PROVIDER,
    wordsPerMinute: OFFLINE_WORDS_PER_MINUTE,

    async health(signal) {
      try {
        const voices = loadOfflineVoices();
        throwIfAborted(signal);
        return { name: PROVIDER, status: 'healthy', details: `espeak-ng (WebAssembly) with ${voices.length} voices` };
      } catch (error) {
        return { name: PROVIDER, status: 'error', details: error instanceof Error ? error.message : String(error) };
      }
    },

    async wordsPerMinuteFor(voiceId: string, language: string, signal?: AbortSignal): Promise<number | null> {
      const voice = getOfflineVoice(voiceId);
      const text = CALIBRATION_TEXTS[voice?.language ?? language];
      if (!voice || !text) return null;
      const key = `${voiceId}\u0000${voice.language}`;
      let rate = measuredRates.get(key);
      if (rate === undefined) {
        const file = pacePath(voice, text);
        rate = (await readKeptPace(file)) ?? undefined;
        if (rate === undefined) {
          const { samples, sampleRate } = await speak(voice, text, signal);
          rate = (countNarrationWords(text, voice.language) / (samples.length / sampleRate)) * 60;
          await keepPace(file, rate);
        }
        measuredRates.set(key, rate);
      }
      return rate;
    },

    async speechSecondsFor(text: string, voiceId: string, _language: string, signal?: AbortSignal): Promise<number | null> {
      const voice = getOfflineVoice(voiceId);
      if (!voice || text.trim().length === 0) return null;
      const { samples, sampleRate } = await speak(voice, text.trim(), signal);
      return samples.length / sampleRate;
    },

    async synthesize(request: SynthesisRequest, signal?: AbortSignal): Promise<SynthesisResult> {
      throwIfAborted(signal);
      const voice = getOfflineVoice(request.voiceId);
      if (!voice) throw new ProviderError(`Unknown voice ${request.voiceId}`, PROVIDER, false);
      const text = request.text.trim();
      if (text.length === 0) throw new ProviderError('There is no narration to voice', PROVIDER, false);
      const { samples, sampleRate, events, words, offsets } = await speak(voice, text, signal);
      if (samples.length === 0) throw new ProviderError('The offline voice produced no audio', PROVIDER, false);
      const durationSeconds = samples.length / sampleRate;

      let timings: WordTiming[] = events.some((event) => event.type === 'word')
        ? timingsFromEvents(words, offsets, events, samples, sampleRate)
        : [];
      if (timings.length === 0)
        timings = estimateTimingsForWords(
          words.map((word) => word.display),
          durationSeconds,
        );

      throwIfAborted(signal);
      await writeAudio(request.outputPath, encodeWav(samples, sampleRate), signal);
      return { audioPath: request.outputPath, durationSeconds, words: timings };
    },
  };
}
