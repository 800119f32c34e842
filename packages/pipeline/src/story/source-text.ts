import { LEADING_CONNECTIVES, stopWordsFor } from './source-stop-words.js';

/** One sentence of a source, where it sits in the source, and whether it can be told on its own. */
export interface SourceSentence {
  /** Place among the source's sentences (0-based). */
  index: number;
  /** As the source wrote it, whitespace runs collapsed to one space. */
  text: string;
  /** True for a line that is not prose: a heading, a caption, a list item without a full stop. */
  fragment: boolean;
}

const SPACELESS = new Set(['ja', 'zh']);
const base = (language: string) => language.toLowerCase().slice(0, 2);
export const isSpaceless = (language: string): boolean => SPACELESS.has(base(language));

/** A sentence ends with a full stop, question or exclamation mark (any script), maybe inside quotes. */
const ENDS_SENTENCE = /[.!?。！？।…]["'”’»」』)）]*$/u;

const segmenters = new Map<string, { sentence: Intl.Segmenter; word: Intl.Segmenter }>();
function segmentersFor(language: string) {
  const key = base(language);
  let found = segmenters.get(key);
  if (!found) {
    found = { sentence: new Intl.Segmenter(key, { granularity: 'sentence' }), word: new Intl.Segmenter(key, { granularity: 'word' }) };
    segmenters.set(key, found);
  }
  return found;
}

/**
 * Abbreviations ICU may split after ("Dr. Smith", "z. B.", "J. K. Rowling"); a sentence never ends
 * on one, nor on a single letter with a full stop.
 */
const ABBREVIATIONS =
  /(?:^|\s)(?:Mr|Mrs|Ms|Dr|Prof|St|Jr|Sr|vs|etc|e\.g|i\.e|No|Nr|ca|bzw|Sra|Dra|Mme|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|\p{L})\.$/u;

/**
 * The source's sentences in order. Lines are split first (a heading or a list item is a line of its
 * own, whatever its punctuation), then each line into sentences with the language's Intl.Segmenter.
 */
export function splitSentences(text: string, language: string): SourceSentence[] {
  const { sentence: segmenter } = segmentersFor(language);
  const sentences: SourceSentence[] = [];
  const add = (sentence: string) => {
    for (const piece of boundSentence(sentence))
      sentences.push({ index: sentences.length, text: piece, fragment: !ENDS_SENTENCE.test(piece) });
  };
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+/gu, ' ').trim();
    if (line === '') continue;
    let pending = '';
    // V8's segmenter slows down with the square of a line's length (4 s for 200,000 characters), so a
    // long line is segmented in windows cut at a sentence end, else a space.
    const pieces = boundText(line, SEGMENT_WINDOW_CHARS, SENTENCE_BREAK)
      .flatMap((window) => [...segmenter.segment(window)])
      .map((segment) => segment.segment.trim())
      .filter(Boolean);
    pieces.forEach((piece, position) => {
      pending = pending ? `${pending} ${piece}` : piece;
      const last = position === pieces.length - 1;
      // A run of abbreviations ("A. B. C. …") stops joining at the cap: the test re-reads all of `pending`.
      if (!last && pending.length < MAX_SENTENCE_CHARS && ABBREVIATIONS.test(pending)) return;
      add(pending);
      pending = '';
    });
  }
  return sentences;
}

/**
 * The longest sentence kept whole, in characters (about 100 English words, more than a 30 s video
 * says). A source with no sentence ends (a pasted table, a page of emoji) would otherwise be one
 * sentence of 200,000 characters that every later step reads again and again.
 */
export const MAX_SENTENCE_CHARS = 600;

/** Longest piece of a line given to the sentence segmenter at once. */
const SEGMENT_WINDOW_CHARS = 2000;
const SENTENCE_BREAK = /[.!?。！？।…]["'”’»」』)）]*\s*/gu;
const CLAUSE_BREAK = /[,;:—–、，；]\s*/gu;

/**
 * A sentence over MAX_SENTENCE_CHARS cut into pieces that fit: at the last clause end (comma,
 * semicolon, colon, dash) in the second half of the allowance, else the last space there, else (no
 * spaces: Japanese, emoji) at the allowance, never inside a surrogate pair.
 */
export function boundSentence(text: string, max = MAX_SENTENCE_CHARS): string[] {
  return boundText(text, max, CLAUSE_BREAK);
}

function boundText(text: string, max: number, breaks: RegExp): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = -1;
    for (const match of window.matchAll(breaks)) {
      const end = match.index + match[0].length;
      if (end >= max / 2 && end <= max) cut = end;
    }
    if (cut < 0) {
      const space = window.lastIndexOf(' ');
      if (space >= max / 2) cut = space + 1;
    }
    if (cut < 0) cut = /[\uD800-\uDBFF]/.test(rest.charAt(max - 1)) ? max - 1 : max;
    const piece = rest.slice(0, cut).trim();
    if (piece) pieces.push(piece);
    rest = rest.slice(cut).trimStart();
  }
  if (rest.trim()) pieces.push(rest.trim());
  return pieces;
}

/** The words of a text as the language's word segmenter sees them (Japanese has no spaces). */
export function words(text: string, language: string): string[] {
  const { word } = segmentersFor(language);
  return [...word.segment(text)].filter((segment) => segment.isWordLike).map((segment) => segment.segment);
}

/**
 * The words that carry meaning, reduced to a comparable form: lower case, stop words dropped, and in
 * alphabetic languages cut to their first six letters, a crude stem that lets "bicycle" meet
 * "bicycles" and "Fahrrad" meet "Fahrrads".
 */
export function contentTerms(text: string, language: string): string[] {
  const stop = stopWordsFor(language);
  const spaceless = isSpaceless(language);
  const terms: string[] = [];
  for (const word of words(text, language).map((token) => withoutElision(token, language))) {
    const lower = word.toLocaleLowerCase(base(language));
    if (stop.has(lower) || /^\p{N}+$/u.test(lower)) continue;
    if (spaceless) {
      // Single kana are grammar, not subjects.
      if (/^[\p{Script=Hiragana}ー]+$/u.test(lower) || lower.length < 1) continue;
      terms.push(lower);
    } else {
      if (lower.length < 3 && !/^\p{Lu}/u.test(word)) continue;
      terms.push(Array.from(lower).slice(0, 6).join(''));
    }
  }
  return terms;
}

/** French and Portuguese glue an article to the next word ("l'électricité", "d'une"): the word is what counts. */
export function withoutElision(token: string, language: string): string {
  return base(language) === 'fr' || base(language) === 'it' ? token.replace(/^(?:[ldjnmstc]|qu)['’](?=\p{L})/iu, '') : token;
}

/**
 * A source sentence made fit to be said on its own: a leading connective ("However,", "Sin embargo,"),
 * parentheses and bracketed references ("[3]") go; the rest is the source's own words.
 */
export function trimSentence(text: string, language: string): string {
  let trimmed = text
    .replace(/\s*\([^()]*\)/gu, '')
    .replace(/\s*（[^（）]*）/gu, '')
    .replace(/\s*\[[^[\]]*\]/gu, '')
    // A reference or a caption's markup cut in two by the sentence split ("…legs".[21][ | 22] The mouth…").
    .replace(/^[^\s[\]]*\]+\s*/u, '')
    .replace(/\s*\[[^\]]*$/u, '')
    .replace(/\s+([,.;:!?])/gu, '$1')
    .replace(/\s+/gu, ' ')
    .trim();
  const lower = trimmed.toLocaleLowerCase(base(language));
  const connectives = [...(LEADING_CONNECTIVES[base(language)] ?? [])].sort((a, b) => b.length - a.length);
  for (const connective of connectives) {
    if (!lower.startsWith(connective)) continue;
    const rest = trimmed.slice(connective.length);
    // Only a whole word followed by a comma (or, in Japanese, 、) is a detachable connective:
    // "And so it began" keeps its "And", "However, the law…" loses its "However,".
    const detached = /^\s*[,،、，]\s*/u.exec(rest);
    if (!detached) continue;
    const remainder = rest.slice(detached[0].length);
    if (remainder.length < 8) break;
    trimmed = capitalise(remainder, language);
    break;
  }
  return trimmed;
}

function capitalise(text: string, language: string): string {
  const first = text.charAt(0);
  return first.toLocaleUpperCase(base(language)) + text.slice(1);
}
