import { contentTerms, type SourceSentence } from './source-text.js';

/**
 * TextRank over word overlap: a sentence is central when it shares its words with many sentences
 * that are central themselves. Similarity is the shared content terms over the log of the two
 * lengths (Mihalcea & Tarau, 2004), so long sentences do not win by length alone.
 */
export function rankSentences(sentences: readonly SourceSentence[], language: string): number[] {
  const terms = sentences.map((sentence) => new Set(contentTerms(sentence.text, language)));
  const count = sentences.length;
  const weights: number[][] = Array.from({ length: count }, () => new Array<number>(count).fill(0));
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      const a = terms[i]!;
      const b = terms[j]!;
      if (a.size < 2 || b.size < 2) continue;
      let shared = 0;
      for (const term of a) if (b.has(term)) shared += 1;
      if (shared === 0) continue;
      const weight = shared / (Math.log(a.size) + Math.log(b.size));
      weights[i]![j] = weight;
      weights[j]![i] = weight;
    }
  }
  const outgoing = weights.map((row) => row.reduce((sum, weight) => sum + weight, 0));
  const damping = 0.85;
  let scores = new Array<number>(count).fill(1);
  for (let iteration = 0; iteration < 60; iteration++) {
    const next = scores.map((_score, i) => {
      let sum = 0;
      for (let j = 0; j < count; j++) {
        const weight = weights[j]![i]!;
        if (weight > 0) sum += (weight / outgoing[j]!) * scores[j]!;
      }
      return 1 - damping + damping * sum;
    });
    const change = next.reduce((sum, score, i) => sum + Math.abs(score - scores[i]!), 0);
    scores = next;
    if (change < 1e-6) break;
  }
  return scores;
}

export interface SummaryCandidate {
  sentence: SourceSentence;
  /** What the narrator says: the sentence trimmed to stand on its own. */
  narration: string;
  /** Its length in the budget's words. */
  words: number;
}

export interface SummaryChoice {
  /** The chosen candidates in the source's order. */
  chosen: SummaryCandidate[];
  /** Their words together. */
  words: number;
}

/**
 * Picks the most central sentences, best first, while they fit in `targetWords`, then puts them back
 * in the source's order. A sentence that would overflow the budget is passed over for the next best
 * one that fits; only the better-ranked part of the text is considered, so a short filler from the
 * article's margins never stands in for its point. A sentence that says nearly what a chosen one
 * says is skipped.
 */
export function chooseSentences(
  candidates: readonly SummaryCandidate[],
  scores: readonly number[],
  targetWords: number,
  language: string,
): SummaryChoice {
  const ranked = [...candidates].sort(
    (a, b) => scores[b.sentence.index]! - scores[a.sentence.index]! || a.sentence.index - b.sentence.index,
  );
  const considered = ranked.slice(0, Math.max(8, Math.ceil(ranked.length * 0.5)));
  const chosen: SummaryCandidate[] = [];
  const chosenTerms: Set<string>[] = [];
  const chosenIndexes = new Set<number>();
  let total = 0;
  const take = (candidate: SummaryCandidate): boolean => {
    if (total + candidate.words > targetWords) return false;
    const terms = new Set(contentTerms(candidate.narration, language));
    const repeats = chosenTerms.some((other) => {
      let shared = 0;
      for (const term of terms) if (other.has(term)) shared += 1;
      return terms.size > 0 && shared / terms.size > 0.6;
    });
    if (repeats) return false;
    chosen.push(candidate);
    chosenTerms.push(terms);
    chosenIndexes.add(candidate.sentence.index);
    total += candidate.words;
    return true;
  };
  // A sentence that opens on "He" or "They" waits until the sentence before it, which says who that
  // is, has been chosen; then it is taken if it still fits.
  const waiting: SummaryCandidate[] = [];
  for (const candidate of considered) {
    if (opensWithPronoun(candidate.narration, language) && !chosenIndexes.has(candidate.sentence.index - 1)) {
      waiting.push(candidate);
      continue;
    }
    if (!take(candidate)) continue;
    for (;;) {
      const next = waiting.findIndex((other) => chosenIndexes.has(other.sentence.index - 1) && total + other.words <= targetWords);
      if (next < 0) break;
      take(waiting.splice(next, 1)[0]!);
    }
  }
  // A budget smaller than every sentence still says the single most central one.
  if (chosen.length === 0 && ranked[0]) {
    chosen.push(ranked[0]);
    total = ranked[0].words;
  }
  chosen.sort((a, b) => a.sentence.index - b.sentence.index);
  return { chosen, words: total };
}

/** Personal pronouns that point back to someone or something named in an earlier sentence. */
const OPENING_PRONOUNS: Record<string, RegExp> = {
  en: /^(?:he|she|it|they|him|his|her|its|their|them)\b/iu,
  de: /^(?:er|sie|es|ihm|ihn|ihr|ihre|sein|seine|seinen|seiner)\b/iu,
  es: /^(?:él|ella|ellos|ellas|su|sus)\b/iu,
  fr: /^(?:il|elle|ils|elles|lui|leur|leurs|son|sa|ses)\b/iu,
  pt: /^(?:ele|ela|eles|elas|seu|sua|seus|suas)\b/iu,
  hi: /^(?:वह|वे|उसने|उन्होंने|उसका|उसकी|उसके|उनका|उनकी|उनके|इसने|इसका|इसकी|इसके)(?=\s)/u,
  ja: /^(?:彼|彼女|彼ら|それ|これ|その|この)/u,
};

export function opensWithPronoun(text: string, language: string): boolean {
  return OPENING_PRONOUNS[language.toLowerCase().slice(0, 2)]?.test(text.trim()) ?? false;
}
