import { encodeWav } from '../audio/wav.js';
import { CancelledError, ProviderError, throwIfAborted } from '../errors.js';
import type { SynthesisRequest, SynthesisResult, VoiceProvider, WordTiming } from '../providers/types.js';
import { countNarrationWords } from '../story/story-budget.js';
import type { KokoroEngine } from './kokoro-engine.js';
import {
  KOKORO_SAMPLE_RATE,
  chunkIds,
  chunkWords,
  cleanEspeakIpa,
  padIds,
  phonemesToIds,
  styleVectorFor,
  toPcm16,
  trimBounds,
  wordSampleSpans,
  type KokoroWord,
} from './kokoro-text.js';
import { getKokoroVoice, type KokoroVoice } from './kokoro-voices.js';
import type { NeuralVoiceModel } from './neural-voice-model.js';
import { writeVoiceAudio } from './voice-audio-file.js';
import { getOfflineVoices } from './voice-catalogue.js';
import { tokenizeWords } from './word-timing-tokenize.js';

const PROVIDER = 'neural';

/**
 * Budgeting rate before a voice is measured: Kokoro's voices speak plain narration at about 150-175
 * words a minute at speed 1; 160 keeps the slower ones inside the duration.
 */
export const NEURAL_WORDS_PER_MINUTE = 160;
/** The pause put between two calls of a long narration (each call's own silence is trimmed). */
const CHUNK_GAP_SECONDS = 0.18;
/** Punctuation Kokoro keeps as tokens (kokoro-js splits it out before phonemising and puts it back). */
const PUNCTUATION = /^([;:,.!?¡¿—…"«»“”(){}[\]]*)(.*?)([;:,.!?¡¿—…"«»“”(){}[\]]*)$/su;

const CALIBRATION_TEXT: Record<string, string> = {
  en: 'Some questions seem simple at first. Then you look a little closer, and every answer opens a new door. Today we follow one of those questions, step by step, and see where it leads.',
  es: 'Algunas preguntas parecen sencillas al principio. Pero si miras un poco más de cerca, cada respuesta abre una nueva puerta. Hoy seguimos una de esas preguntas, paso a paso, para ver adónde nos lleva.',
  fr: "Certaines questions semblent simples au premier abord. Mais si l'on regarde d'un peu plus près, chaque réponse ouvre une nouvelle porte. Aujourd'hui, nous suivons l'une de ces questions, pas à pas, pour voir où elle mène.",
  pt: 'Algumas perguntas parecem simples à primeira vista. Mas, se olharmos um pouco mais de perto, cada resposta abre uma nova porta. Hoje seguimos uma dessas perguntas, passo a passo, para ver aonde ela nos leva.',
  it: 'Alcune domande sembrano semplici a prima vista. Ma se guardiamo un po più da vicino, ogni risposta apre una nuova porta. Oggi seguiamo una di queste domande, passo dopo passo, per vedere dove ci porta.',
  hi: 'कुछ सवाल पहली नज़र में आसान लगते हैं। लेकिन ज़रा ध्यान से देखें, तो हर जवाब एक नया दरवाज़ा खोल देता है। आज हम ऐसे ही एक सवाल के पीछे चलेंगे, कदम दर कदम, और देखेंगे कि वह हमें कहाँ ले जाता है।',
};

export interface NeuralVoiceProviderOptions {
  model: NeuralVoiceModel;
  /** The espeak voices: a basic voice of the catalogue, and every natural voice until the model is there. */
  fallback: VoiceProvider;
  ffmpegPath?: string;
}

/** The basic voice a natural one is replaced by while the model is missing: the same language and gender. */
export function substituteVoice(voice: KokoroVoice): string | undefined {
  const candidates = getOfflineVoices(voice.language);
  return (candidates.find((candidate) => candidate.gender === voice.gender) ?? candidates[0])?.id;
}

interface Speech {
  samples: Int16Array;
  words: WordTiming[];
}

/** A caption word's phonemes: its punctuation kept as Kokoro's tokens, its letters spoken by espeak-ng. */
async function wordsToTokens(engine: KokoroEngine, voice: KokoroVoice, text: string, signal?: AbortSignal): Promise<KokoroWord[]> {
  const vocab = await engine.vocab();
  const words = tokenizeWords(text, voice.language).map(({ word }) => {
    const [, before = '', core = '', after = ''] = PUNCTUATION.exec(word.replace(/[«]/g, '“').replace(/[»]/g, '”')) ?? [];
    return { word, before, core, after };
  });
  const ipa = await engine.phonemize(
    voice.espeakVoice,
    words.map((w) => w.core),
    signal,
  );
  const american = voice.espeakVoice === 'en-us';
  return words.map((w, index) => ({
    word: w.word,
    ids: phonemesToIds(`${w.before}${cleanEspeakIpa(ipa[index] ?? '', american).replace(/\s*\|\s*/g, ' ')}${w.after}`, vocab),
  }));
}

async function speakWithModel(engine: KokoroEngine, voice: KokoroVoice, text: string, signal?: AbortSignal): Promise<Speech> {
  const vocab = await engine.vocab();
  const spaceId = vocab.ids.get(' ');
  const pack = await engine.voicePack(voice.pack);
  const tokens = await wordsToTokens(engine, voice, text, signal);
  const parts: Int16Array[] = [];
  const words: WordTiming[] = [];
  let offset = 0;
  const gap = Math.round(CHUNK_GAP_SECONDS * KOKORO_SAMPLE_RATE);
  for (const chunk of chunkWords(tokens, spaceId)) {
    const { ids, spans } = chunkIds(chunk, spaceId);
    if (ids.length === 0) continue;
    if (parts.length > 0) {
      parts.push(new Int16Array(gap));
      offset += gap;
    }
    // The style row is chosen by the unpadded count; the model is given the ids between their pads.
    const { waveform, durations } = await engine.run(padIds(ids, vocab), styleVectorFor(pack, ids.length), 1, signal);
    const bounds = trimBounds(waveform);
    const kept = waveform.subarray(bounds.start, bounds.end);
    const spansInSamples = wordSampleSpans(spans, ids.length, waveform.length, durations);
    chunk.forEach((word, index) => {
      if (!word.word) return;
      const [start, end] = spansInSamples[index] ?? [0, 0];
      const clamp = (value: number) => Math.min(kept.length, Math.max(0, value - bounds.start));
      words.push({ word: word.word, start: (offset + clamp(start)) / KOKORO_SAMPLE_RATE, end: (offset + clamp(end)) / KOKORO_SAMPLE_RATE });
    });
    parts.push(toPcm16(kept));
    offset += kept.length;
  }
  const samples = new Int16Array(offset);
  let at = 0;
  for (const part of parts) {
    samples.set(part, at);
    at += part.length;
  }
  return { samples, words };
}

/**
 * The natural voice: Kokoro-82M (onnxruntime-node, in a worker thread) for the voices of
 * KOKORO_VOICES, espeak-ng for the basic ones. Until the model is on disk, a natural voice is
 * spoken by the basic voice of its language and gender, and the result says why (`note`).
 */
export function createNeuralVoiceProvider(options: NeuralVoiceProviderOptions): VoiceProvider {
  const { model, fallback } = options;
  const measured = new Map<string, number>();

  const writeAudio = (outputPath: string, samples: Int16Array, signal?: AbortSignal): Promise<void> =>
    writeVoiceAudio(outputPath, encodeWav(samples, KOKORO_SAMPLE_RATE), {
      ffmpegPath: options.ffmpegPath ?? 'ffmpeg',
      signal,
      encodeFailed: (error) =>
        new ProviderError('The natural voice could not encode its audio', PROVIDER, false, undefined, { cause: error }),
    });

  async function speak(voice: KokoroVoice, text: string, signal?: AbortSignal): Promise<Speech> {
    try {
      return await speakWithModel(await model.engine(), voice, text, signal);
    } catch (error) {
      if (error instanceof CancelledError || signal?.aborted) throw new CancelledError();
      throw new ProviderError(
        `The natural voice failed to speak the narration: ${error instanceof Error ? error.message : String(error)}`,
        PROVIDER,
        false,
        undefined,
        {
          cause: error,
        },
      );
    }
  }

  /** The natural voice to speak with, or the basic voice id (and why) when it cannot be used now. */
  async function route(voiceId: string): Promise<{ voice: KokoroVoice } | { basicVoiceId: string; note?: string }> {
    const voice = getKokoroVoice(voiceId);
    if (!voice) return { basicVoiceId: voiceId };
    let reason: string;
    if (!(await model.isReady())) reason = model.unavailableReason();
    else if (!(await model.manifest()).files.some((file) => file.path === `voices/${voice.pack}.bin`))
      // Another model build (VOICE_MODEL_MANIFEST) may not carry every voice pack.
      reason = `The model on this server has no ${voice.name} voice`;
    else return { voice };
    const substitute = substituteVoice(voice);
    if (!substitute) throw new ProviderError(`No basic voice can stand in for ${voice.name}`, PROVIDER, false);
    return { basicVoiceId: substitute, note: `${reason}: narrated with the basic voice instead of ${voice.name}.` };
  }

  return {
    name: PROVIDER,
    wordsPerMinute: NEURAL_WORDS_PER_MINUTE,

    async health(signal) {
      throwIfAborted(signal);
      if (await model.isReady()) {
        const manifest = await model.manifest();
        return { name: PROVIDER, status: 'healthy', details: `Kokoro-82M (${manifest.model}) with espeak-ng phonemes` };
      }
      // Healthy all the same: the jobs narrate, with espeak-ng, until the model is there.
      return { name: PROVIDER, status: 'healthy', details: `${model.unavailableReason()}; jobs narrate with espeak-ng meanwhile` };
    },

    async wordsPerMinuteFor(voiceId, language, signal) {
      const routed = await route(voiceId);
      if ('basicVoiceId' in routed) return fallback.wordsPerMinuteFor?.(routed.basicVoiceId, language, signal) ?? null;
      const text = CALIBRATION_TEXT[routed.voice.language];
      if (!text) return null;
      let rate = measured.get(voiceId);
      if (rate === undefined) {
        const { samples } = await speak(routed.voice, text, signal);
        rate = (countNarrationWords(text, routed.voice.language) / (samples.length / KOKORO_SAMPLE_RATE)) * 60;
        measured.set(voiceId, rate);
      }
      return rate;
    },

    async speechSecondsFor(text, voiceId, language, signal) {
      const routed = await route(voiceId);
      if ('basicVoiceId' in routed) return fallback.speechSecondsFor?.(text, routed.basicVoiceId, language, signal) ?? null;
      if (text.trim().length === 0) return null;
      const { samples } = await speak(routed.voice, text.trim(), signal);
      return samples.length / KOKORO_SAMPLE_RATE;
    },

    async synthesize(request: SynthesisRequest, signal?: AbortSignal): Promise<SynthesisResult> {
      throwIfAborted(signal);
      const routed = await route(request.voiceId);
      if ('basicVoiceId' in routed) {
        const result = await fallback.synthesize({ ...request, voiceId: routed.basicVoiceId }, signal);
        return routed.note ? { ...result, note: routed.note } : result;
      }
      const text = request.text.trim();
      if (text.length === 0) throw new ProviderError('There is no narration to voice', PROVIDER, false);
      const { samples, words } = await speak(routed.voice, text, signal);
      if (samples.length === 0) throw new ProviderError('The natural voice produced no audio', PROVIDER, false);
      throwIfAborted(signal);
      await writeAudio(request.outputPath, samples, signal);
      return { audioPath: request.outputPath, durationSeconds: samples.length / KOKORO_SAMPLE_RATE, words };
    },
  };
}
