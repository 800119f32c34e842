import { describe, expect, it } from 'vitest';
import { KOKORO_VOCAB, tinyKokoroConfigJson, tinyKokoroTokenizerJson, tinyKokoroVoice } from '../testing/tiny-kokoro-model.js';
import {
  KOKORO_MAX_PHONEMES,
  KOKORO_SAMPLES_PER_FRAME,
  chunkIds,
  chunkWords,
  cleanEspeakIpa,
  padIds,
  parseKokoroVocab,
  phonemesToIds,
  styleRowFor,
  styleVectorFor,
  trimBounds,
  wordSampleSpans,
} from './kokoro-text.js';

const vocab = parseKokoroVocab(tinyKokoroTokenizerJson(), null);

describe('Kokoro tokenisation', () => {
  it('reads the vocabulary from tokenizer.json, or from config.json without the pad', () => {
    expect(vocab.padId).toBe(0);
    expect(vocab.ids.get('ˈ')).toBe(156);
    const fromConfig = parseKokoroVocab(null, tinyKokoroConfigJson());
    expect(fromConfig.ids.get('ɹ')).toBe(123);
    expect(fromConfig.padId).toBe(0);
    expect(() => parseKokoroVocab('{}', '{"model_type":"x"}')).toThrow(/no phoneme vocabulary/);
  });

  it("maps phonemes one character at a time and drops what the vocabulary lacks, as Kokoro's tokenizer does", () => {
    // The model card's example begins "ðɪs" ...: ð=81 ɪ=102 s=61, space 16.
    expect(phonemesToIds('ðɪs ɪz', vocab)).toEqual([81, 102, 61, 16, 102, 68]);
    expect(phonemesToIds('a✓b', vocab)).toEqual([KOKORO_VOCAB.a, KOKORO_VOCAB.b]);
    expect(padIds([81, 102], vocab)).toEqual([0, 81, 102, 0]);
  });

  it("cleans espeak-ng's IPA the way kokoro-js does", () => {
    expect(cleanEspeakIpa('h_ə_l_ˈoʊ w_ˈɜː_l_d', true)).toBe('həlˈoʊ wˈɜːld');
    expect(cleanEspeakIpa('(en)_ˈəʊ_l_a_(hi)', false)).toBe('ˈəʊla');
    expect(cleanEspeakIpa('p_r_ˌu_ˈe_b_æ', false)).toBe('pɹˌuˈebæ');
    expect(cleanEspeakIpa('n_ˈaɪ_n_t_iː_n_h_ˈʌ_n_d_ɹ_ɪ_d n_ˈaɪ_n_t_i', true)).toBe('nˈaɪntiːn hˈʌndɹɪd nˈaɪndi');
    expect(cleanEspeakIpa('n_ˈaɪ_n_t_i', false)).toBe('nˈaɪnti');
  });
});

describe('Kokoro style vector', () => {
  it('takes the row numbered by the phoneme count, clamped to the pack (kokoro-js: min(max(n, 0), 509))', () => {
    expect(styleRowFor(0, 510)).toBe(0);
    expect(styleRowFor(37, 510)).toBe(37);
    expect(styleRowFor(510, 510)).toBe(509);
    expect(styleRowFor(-1, 510)).toBe(0);
    const pack = new Float32Array(tinyKokoroVoice(7).buffer.slice(0));
    const style = styleVectorFor(pack, 37);
    expect(style).toHaveLength(256);
    expect(style[0]).toBeCloseTo(37.007, 3);
    expect(style[255]).toBeCloseTo(37.007, 3);
    expect(styleVectorFor(pack, 999)[0]).toBeCloseTo(509.007, 3);
    expect(() => styleVectorFor(new Float32Array(300), 1)).toThrow(/rows of 256/);
  });
});

describe('Kokoro calls and word timing', () => {
  const word = (text: string, n: number) => ({ word: text, ids: Array.from({ length: n }, () => 43) });

  it('keeps every call within 510 phonemes, cutting after a sentence where it can', () => {
    // "Two" would still fit after "One.", but "three" would not: the cut goes after the sentence.
    const words = [word('One.', 300), word('Two', 100), word('three', 200), word('four.', 100)];
    const chunks = chunkWords(words, 16);
    for (const chunk of chunks) expect(chunkIds(chunk, 16).ids.length).toBeLessThanOrEqual(KOKORO_MAX_PHONEMES);
    expect(chunks.map((chunk) => chunk.map((w) => w.word))).toEqual([['One.'], ['Two', 'three', 'four.']]);
    expect(chunkWords([word('x', 1200)], 16).map((chunk) => chunkIds(chunk, 16).ids.length)).toEqual([510, 510, 180]);
  });

  it('gives each word its span of ids, a space between words', () => {
    const { ids, spans } = chunkIds([word('a', 2), word('b', 3)], 16);
    expect(ids).toEqual([43, 43, 16, 43, 43, 43]);
    expect(spans).toEqual([
      [0, 2],
      [3, 6],
    ]);
  });

  it("times words from the model's per-token durations (frames of 600 samples, pads included)", () => {
    // Pads take 1 and 2 frames, the word tokens 1, 2, 1, 3 frames.
    const spans = wordSampleSpans(
      [
        [0, 2],
        [3, 4],
      ],
      4,
      9 * KOKORO_SAMPLES_PER_FRAME,
      Float32Array.from([1, 1, 2, 1, 3, 1]),
    );
    expect(spans).toEqual([
      [1 * 600, 4 * 600],
      [5 * 600, 8 * 600],
    ]);
  });

  it('shares the audio out by tokens, pads included, when the graph gives no durations', () => {
    expect(
      wordSampleSpans(
        [
          [0, 2],
          [3, 6],
        ],
        6,
        8000,
      ),
    ).toEqual([
      [1000, 3000],
      [4000, 7000],
    ]);
  });

  it('trims the silence around the speech, never the speech', () => {
    const samples = new Float32Array(10_000);
    for (let i = 3000; i < 7000; i += 1) samples[i] = Math.sin(i / 5) * 0.5;
    const { start, end } = trimBounds(samples);
    expect(start).toBeLessThanOrEqual(3000);
    expect(start).toBeGreaterThan(2000);
    expect(end).toBeGreaterThanOrEqual(7000);
    expect(end).toBeLessThan(8000);
    expect(trimBounds(new Float32Array(100))).toEqual({ start: 0, end: 100 });
  });
});
