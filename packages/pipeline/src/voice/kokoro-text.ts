/**
 * The pure parts of Kokoro's inference path, as its reference implementations do them (kokoro-js
 * 1.2 and the onnx-community/Kokoro-82M-v1.0-ONNX model card): espeak-ng IPA cleaned the way
 * kokoro-js's phonemize() cleans it, phonemes mapped one character at a time through the
 * tokenizer's vocabulary (characters it lacks dropped), `$` (id 0) padding both ends, at most 510
 * phonemes per call (the model's context is 512), and the style vector taken from the voice pack's
 * row number `phoneme count` (kokoro-js: `256 * min(max(dims - 2, 0), 509)`).
 */

/** Kokoro's context is 512 ids, two of them the pads. */
export const KOKORO_MAX_PHONEMES = 510;
export const KOKORO_STYLE_DIM = 256;
export const KOKORO_SAMPLE_RATE = 24_000;
/** One predicted-duration frame of Kokoro's decoder, in samples (25 ms at 24 kHz). */
export const KOKORO_SAMPLES_PER_FRAME = 600;

export interface KokoroVocab {
  ids: ReadonlyMap<string, number>;
  padId: number;
}

/**
 * The phoneme vocabulary from the model's tokenizer.json (`model.vocab`, `$` the pad), or from its
 * config.json (`vocab`, pad 0) when the tokenizer has none.
 */
export function parseKokoroVocab(tokenizerJson: string | null, configJson: string | null): KokoroVocab {
  const fromTokenizer = tokenizerJson ? (JSON.parse(tokenizerJson) as { model?: { vocab?: unknown } }).model?.vocab : undefined;
  const fromConfig = configJson ? (JSON.parse(configJson) as { vocab?: unknown }).vocab : undefined;
  const vocab = (fromTokenizer ?? fromConfig) as Record<string, unknown> | undefined;
  if (!vocab || typeof vocab !== 'object') throw new Error('The voice model has no phoneme vocabulary (tokenizer.json or config.json)');
  const ids = new Map<string, number>();
  for (const [symbol, id] of Object.entries(vocab)) if (typeof id === 'number' && Number.isInteger(id)) ids.set(symbol, id);
  if (ids.size === 0) throw new Error('The voice model has an empty phoneme vocabulary');
  return { ids, padId: ids.get('$') ?? 0 };
}

/**
 * espeak-ng's IPA as Kokoro expects it: espeak's phoneme separators and language-switch flags
 * removed, then kokoro-js's corrections (ʲ→j, r→ɹ, x→k, ɬ→l, "hundred" split off its number, and
 * "-ty" voiced as American English says it).
 */
export function cleanEspeakIpa(ipa: string, americanEnglish: boolean): string {
  let text = ipa
    .replace(/\([a-z-]+\)/g, '')
    .replace(/_/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  text = text
    .replace(/kəkˈoːɹoʊ/g, 'kˈoʊkəɹoʊ')
    .replace(/kəkˈɔːɹəʊ/g, 'kˈəʊkəɹəʊ')
    .replace(/ʲ/g, 'j')
    .replace(/r/g, 'ɹ')
    .replace(/x/g, 'k')
    .replace(/ɬ/g, 'l')
    .replace(/(?<=[a-zɹː])(?=hˈʌndɹɪd)/g, ' ');
  if (americanEnglish) text = text.replace(/(?<=nˈaɪn)ti(?!ː)/g, 'di');
  return text.trim();
}

/** Phonemes to ids, one character at a time; characters outside the vocabulary are dropped (Kokoro's tokenizer does the same). */
export function phonemesToIds(phonemes: string, vocab: KokoroVocab): number[] {
  const ids: number[] = [];
  for (const symbol of phonemes) {
    const id = vocab.ids.get(symbol);
    if (id !== undefined && symbol !== '$') ids.push(id);
  }
  return ids;
}

/** The input ids of one call: the phoneme ids between two pads. */
export function padIds(ids: readonly number[], vocab: KokoroVocab): number[] {
  return [vocab.padId, ...ids, vocab.padId];
}

/** The voice pack's row for `phonemeCount` phonemes (the unpadded ids), clamped to the pack. */
export function styleRowFor(phonemeCount: number, rows: number): number {
  return Math.min(Math.max(phonemeCount, 0), Math.max(0, rows - 1));
}

/** The 256 numbers of the style vector for a call of `phonemeCount` phonemes. */
export function styleVectorFor(pack: Float32Array, phonemeCount: number): Float32Array {
  if (pack.length === 0 || pack.length % KOKORO_STYLE_DIM !== 0)
    throw new Error(`A Kokoro voice pack holds rows of ${KOKORO_STYLE_DIM} numbers; this one has ${pack.length}`);
  const row = styleRowFor(phonemeCount, pack.length / KOKORO_STYLE_DIM);
  return pack.slice(row * KOKORO_STYLE_DIM, (row + 1) * KOKORO_STYLE_DIM);
}

/** A caption word, its phoneme ids, and whether a pause (punctuation) follows it. */
export interface KokoroWord {
  word: string;
  ids: number[];
}

/**
 * Groups words into calls of at most KOKORO_MAX_PHONEMES ids (a space id between words), cutting
 * after a sentence where it can, else after the last word that fits. A word longer than a whole
 * call is cut in pieces (it never happens with real words, but the model must never see 513 ids).
 */
export function chunkWords(words: readonly KokoroWord[], spaceId: number | undefined, max = KOKORO_MAX_PHONEMES): KokoroWord[][] {
  const chunks: KokoroWord[][] = [];
  let current: KokoroWord[] = [];
  let length = 0;
  let lastSentenceEnd = -1;
  const separator = spaceId === undefined ? 0 : 1;
  const flush = (upTo: number) => {
    chunks.push(current.slice(0, upTo));
    current = current.slice(upTo);
    length = current.reduce((sum, w, i) => sum + w.ids.length + (i > 0 ? separator : 0), 0);
    lastSentenceEnd = -1;
  };
  for (const word of words) {
    if (word.ids.length > max) {
      if (current.length > 0) flush(current.length);
      for (let start = 0; start < word.ids.length; start += max)
        chunks.push([{ word: start === 0 ? word.word : '', ids: word.ids.slice(start, start + max) }]);
      continue;
    }
    const added = word.ids.length + (current.length > 0 ? separator : 0);
    if (length + added > max) flush(lastSentenceEnd >= 0 ? lastSentenceEnd + 1 : current.length);
    current.push(word);
    length += word.ids.length + (current.length > 1 ? separator : 0);
    if (/[.!?…。！？]["”»)]*$/u.test(word.word)) lastSentenceEnd = current.length - 1;
  }
  if (current.length > 0) chunks.push(current);
  return chunks.filter((chunk) => chunk.length > 0);
}

/** A chunk's ids in order, a space between words, and each word's [start, end) within them. */
export function chunkIds(chunk: readonly KokoroWord[], spaceId: number | undefined): { ids: number[]; spans: [number, number][] } {
  const ids: number[] = [];
  const spans: [number, number][] = [];
  chunk.forEach((word, index) => {
    if (index > 0 && spaceId !== undefined) ids.push(spaceId);
    const start = ids.length;
    ids.push(...word.ids);
    spans.push([start, ids.length]);
  });
  return { ids, spans };
}

/**
 * Each word's [start, end) in samples within one call's audio. With the model's per-token
 * durations (frames; the pads included, as the timestamped export gives them), a word spans its own
 * tokens' frames; without them, the audio is shared out equally between the tokens, pads included.
 */
export function wordSampleSpans(
  spans: readonly [number, number][],
  idCount: number,
  totalSamples: number,
  durations?: ArrayLike<number> | null,
): [number, number][] {
  if (durations && durations.length === idCount + 2) {
    const starts = new Float64Array(idCount + 3);
    for (let i = 0; i < idCount + 2; i += 1) starts[i + 1] = starts[i]! + Math.max(0, Number(durations[i])) * KOKORO_SAMPLES_PER_FRAME;
    const modelTotal = starts[idCount + 2]!;
    // The waveform can differ from the frames' sum by the decoder's edge; stretch to the real length.
    const scale = modelTotal > 0 ? totalSamples / modelTotal : 1;
    // Token i of the unpadded ids is token i + 1 of the padded input.
    return spans.map(([start, end]) => [Math.round(starts[start + 1]! * scale), Math.round(starts[end + 1]! * scale)]);
  }
  // The pads speak too (a breath at each end): every one of the idCount + 2 tokens gets an equal share.
  const perToken = totalSamples / (idCount + 2);
  return spans.map(([start, end]) => [Math.round((start + 1) * perToken), Math.round((end + 1) * perToken)]);
}

/**
 * The first and last sample louder than `thresholdDb` below the peak, measured in frames of
 * `frame` samples, so the model's leading and trailing breath is cut but no word is.
 */
export function trimBounds(samples: Float32Array, thresholdDb = -60, frame = 512): { start: number; end: number } {
  let peak = 0;
  for (const value of samples) peak = Math.max(peak, Math.abs(value));
  if (peak === 0) return { start: 0, end: samples.length };
  const threshold = peak * 10 ** (thresholdDb / 20);
  const loud = (from: number) => {
    const to = Math.min(samples.length, from + frame);
    let sum = 0;
    for (let i = from; i < to; i += 1) sum += samples[i]! * samples[i]!;
    return Math.sqrt(sum / Math.max(1, to - from)) > threshold;
  };
  let start = 0;
  while (start < samples.length && !loud(start)) start += frame;
  let end = samples.length;
  while (end > start && !loud(Math.max(start, end - frame))) end -= frame;
  return { start: Math.min(start, samples.length), end: Math.max(Math.min(end, samples.length), Math.min(start, samples.length)) };
}

/** Float samples in [-1, 1] to 16-bit PCM. */
export function toPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) out[i] = Math.round(Math.max(-1, Math.min(1, samples[i]!)) * 32767);
  return out;
}
