/** A caption word and where it sits in the text (UTF-16 offsets, end exclusive). */
export interface WordToken {
  word: string;
  start: number;
  end: number;
}

const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Letters, digits and the symbols a narrator reads out (& is "and", % is "percent"). */
const HAS_WORD_CHAR = /[\p{L}\p{N}&%@#$€£¥₹+=]/u;
const HIRAGANA_ONLY = /^\p{Script=Hiragana}+$/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Japanese particles and endings glue onto the word before them until a caption word is this long. */
const MAX_JOINED_JAPANESE_LENGTH = 6;

/**
 * Splits narration into caption words. Spaced scripts split on whitespace, with stray punctuation
 * kept on its neighbour; runs of Chinese, Japanese or Thai (no spaces) are cut with
 * Intl.Segmenter, and short Japanese particles/endings join the word before them so captions do not
 * flash one kana at a time.
 */
export function tokenizeWords(text: string, language: string): WordToken[] {
  const tokens: WordToken[] = [];
  let pendingPrefixStart: number | undefined;

  const push = (start: number, end: number, attachable: boolean) => {
    const last = tokens[tokens.length - 1];
    if (attachable && last) {
      last.end = end;
      last.word = text.slice(last.start, end);
      return;
    }
    if (!attachable || !last) {
      if (!HAS_WORD_CHAR.test(text.slice(start, end))) {
        // Leading punctuation (an opening quote) waits for the word it belongs to.
        pendingPrefixStart ??= start;
        return;
      }
      const from = pendingPrefixStart ?? start;
      pendingPrefixStart = undefined;
      tokens.push({ word: text.slice(from, end), start: from, end });
    }
  };

  for (const run of text.matchAll(/\S+/gu)) {
    const runStart = run.index ?? 0;
    const runText = run[0];
    if (!NO_SPACE_SCRIPT.test(runText)) {
      const punctuationOnly = !HAS_WORD_CHAR.test(runText);
      push(runStart, runStart + runText.length, punctuationOnly && tokens.length > 0 && pendingPrefixStart === undefined);
      continue;
    }
    const segmenter = new Intl.Segmenter(segmenterLocale(language, runText), { granularity: 'word' });
    let firstInRun = true;
    for (const segment of segmenter.segment(runText)) {
      const start = runStart + segment.index;
      const end = start + segment.segment.length;
      const last = tokens[tokens.length - 1];
      const isPunctuation = !segment.isWordLike && !HAS_WORD_CHAR.test(segment.segment);
      const joinsJapanese =
        !firstInRun &&
        last !== undefined &&
        HIRAGANA_ONLY.test(segment.segment) &&
        segment.segment.length <= 2 &&
        last.end - last.start + segment.segment.length <= MAX_JOINED_JAPANESE_LENGTH;
      push(start, end, (isPunctuation && last !== undefined && pendingPrefixStart === undefined) || joinsJapanese);
      firstInRun = false;
    }
  }

  if (pendingPrefixStart !== undefined) {
    const last = tokens[tokens.length - 1];
    if (last) {
      last.end = text.trimEnd().length;
      last.word = text.slice(last.start, last.end);
    }
  }
  return tokens;
}

function segmenterLocale(language: string, sample: string): string {
  const base = language.toLowerCase().split(/[-_]/)[0] ?? '';
  if (['ja', 'zh', 'th', 'lo', 'km', 'my'].includes(base)) return base;
  return KANA.test(sample) ? 'ja' : 'zh';
}
