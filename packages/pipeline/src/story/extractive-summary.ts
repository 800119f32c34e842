import { contentTerms, words, type SourceSentence } from './source-text.js';

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

/**
 * Where each sentence sits in the article's layout: the first sentence of a paragraph (a line of its
 * own), and of a section (the first after a heading). Sentences are found in the text in order, so
 * a sentence split off a longer one still maps to its line.
 */
export function sentenceLayout(
  text: string,
  sentences: readonly SourceSentence[],
): Array<{ paragraphStart: boolean; sectionStart: boolean }> {
  const layout = sentences.map(() => ({ paragraphStart: false, sectionStart: false }));
  let next = 0;
  let afterHeading = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+/gu, ' ').trim();
    if (line === '' || next >= sentences.length) continue;
    const start = next;
    const first = sentences[start]!;
    layout[start] = { paragraphStart: true, sectionStart: afterHeading && !first.fragment };
    // The line's own sentences: those whose text it holds, from where the last one ended.
    let from = 0;
    while (next < sentences.length) {
      const at = line.indexOf(sentences[next]!.text, from);
      if (at < 0) break;
      from = at + sentences[next]!.text.length;
      next += 1;
    }
    // A sentence the line does not hold word for word is still this line's: move past it.
    if (next === start) next += 1;
    afterHeading = first.fragment;
  }
  return layout;
}

/** How much each signal weighs in `scoreSentences` (the weights `npm run bench:summary` was tuned with). */
// A section's opening is a paragraph's too; a weight of its own, or for every sentence naming the
// title's words, scored lower on the benchmark than the paragraph opening and the definition alone.
export const SCORE_WEIGHTS = { centrality: 1, lead: 1.5, leadDecay: 0.5, paragraph: 0.3, definition: 0.5 };

/**
 * A sentence's worth as narration: its centrality (TextRank, scaled to the best sentence's), plus
 * where it stands and what it names. Centrality alone favours an article's dense middle; a writer
 * puts the point first, so the lead sentences weigh more (falling off with their place among the
 * prose), so do the openings of paragraphs (and so of sections), and the first sentence that names
 * the article's subject (most of its title's words): it usually says what the subject is.
 * Headings and other fragments score nothing.
 */
export function scoreSentences(text: string, sentences: readonly SourceSentence[], language: string, title = ''): number[] {
  const centrality = rankSentences(sentences, language);
  const best = Math.max(1e-9, ...centrality);
  const layout = sentenceLayout(text, sentences);
  const titleTerms = new Set(contentTerms(title, language));
  const weights = SCORE_WEIGHTS;
  let prose = 0;
  let definitionFound = false;
  return sentences.map((sentence, index) => {
    if (sentence.fragment) return 0;
    const place = prose++;
    const terms = new Set(contentTerms(sentence.text, language));
    let named = 0;
    for (const term of titleTerms) if (terms.has(term)) named += 1;
    // The first prose sentence that names most of the title is taken for the article's definition.
    const definition = !definitionFound && titleTerms.size > 0 && named / titleTerms.size >= 0.5;
    if (definition) definitionFound = true;
    return (
      weights.centrality * (centrality[index]! / best) +
      weights.lead / (1 + place * weights.leadDecay) +
      (layout[index]!.paragraphStart ? weights.paragraph : 0) +
      (definition ? weights.definition : 0)
    );
  });
}

export interface SummaryCandidate {
  sentence: SourceSentence;
  /** What the narrator says: the sentence trimmed to stand on its own. */
  narration: string;
  /** Its length in the budget's words. */
  words: number;
  /** The first sentence of its paragraph (a short one that others follow announces them). */
  paragraphStart?: boolean;
  /** Too short to be told alone ("She dances."): told only as the answer to the sentence before it. */
  answerOnly?: boolean;
}

export interface SummaryChoice {
  /** The chosen candidates in the source's order. */
  chosen: SummaryCandidate[];
  /** Their words together. */
  words: number;
}

/**
 * Picks the best-scored sentences, best first, while they fit in `targetWords`, then puts them back
 * in the source's order. A sentence that would overflow the budget is passed over for the next best
 * one that fits; only the better-ranked part of the text is considered, so a short filler from the
 * article's margins never stands in for its point. A sentence that says nearly what a chosen one
 * says is skipped. A sentence that points back ("He…", "This is why…") waits for the one before it;
 * one that announces what follows (a question, a colon, "Not everyone…", a short paragraph opener)
 * comes only with the sentence after it, or not at all, so the narration never teases and stops.
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
  const considered = ranked.filter((candidate) => !candidate.answerOnly).slice(0, Math.max(8, Math.ceil(ranked.length * 0.5)));
  const byIndex = new Map(candidates.map((candidate) => [candidate.sentence.index, candidate]));
  const chosen: SummaryCandidate[] = [];
  const chosenTerms: Set<string>[] = [];
  const chosenIndexes = new Set<number>();
  let total = 0;
  const repeats = (candidate: SummaryCandidate): boolean => {
    const terms = new Set(contentTerms(candidate.narration, language));
    return chosenTerms.some((other) => {
      let shared = 0;
      for (const term of terms) if (other.has(term)) shared += 1;
      return terms.size > 0 && shared / terms.size > 0.6;
    });
  };
  // The sentences a candidate must be told with: itself, and the answer to what it announces.
  const unitOf = (candidate: SummaryCandidate): SummaryCandidate[] | null => {
    if (!announces(candidate, byIndex, language)) return [candidate];
    const answer = answerTo(candidate, byIndex, language);
    if (!answer || announces(answer, byIndex, language)) return null;
    return chosenIndexes.has(answer.sentence.index) ? [candidate] : [candidate, answer];
  };
  const take = (candidate: SummaryCandidate): boolean => {
    if (chosenIndexes.has(candidate.sentence.index)) return false;
    const unit = unitOf(candidate);
    if (!unit) return false;
    const words = unit.reduce((sum, member) => sum + member.words, 0);
    if (total + words > targetWords) return false;
    if (repeats(candidate)) return false;
    for (const member of unit) {
      chosen.push(member);
      chosenTerms.push(new Set(contentTerms(member.narration, language)));
      chosenIndexes.add(member.sentence.index);
      total += member.words;
    }
    return true;
  };
  const waiting: SummaryCandidate[] = [];
  for (const candidate of considered) {
    if (pointsBack(candidate.narration, language) && !chosenIndexes.has(candidate.sentence.index - 1)) {
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
  // A budget smaller than every sentence still says the single best one that closes.
  if (chosen.length === 0) {
    const single = considered.find((candidate) => !announces(candidate, byIndex, language)) ?? considered[0];
    if (single) {
      chosen.push(single);
      total = single.words;
    }
  }
  chosen.sort((a, b) => a.sentence.index - b.sentence.index);
  return { chosen, words: total };
}

/**
 * Sentences that announce what comes next rather than say it: a question, a sentence ending on a
 * colon, a tease ("Not everyone welcomed the tower.", "Here is how it works."). English patterns;
 * the punctuation and the short paragraph opener hold in every language.
 */
const ANNOUNCING: Record<string, RegExp> = {
  en: /^(?:not (?:everyone|everybody|all|always|for long)|here(?:'s| is| are)|there (?:is|was) (?:a|one) (?:catch|problem|twist)\b|but (?:that|this|it) (?:is|was)n['’]?t|that (?:changed|was about to change)|this (?:changed|would change))/iu,
  de: /^(?:nicht (?:jeder|alle|immer)|doch das (?:änderte|sollte))/iu,
  es: /^(?:no todos|no siempre|pero eso cambió)/iu,
  fr: /^(?:tout le monde n|pas toujours|mais cela a changé)/iu,
  pt: /^(?:nem todos|nem sempre|mas isso mudou)/iu,
};

/** A tease anywhere in an English sentence: "…does something remarkable when she returns." */
const TEASING_EN =
  /\b(?:something|one thing) (?:remarkable|surprising|strange|unusual|unexpected|curious)\b|\ba (?:surprising|simple|strange) (?:answer|result|twist)\b/iu;

/** Words of a short sentence that opens a paragraph and heads what the paragraph then tells. */
const TEASER_WORDS = 8;

function announces(candidate: SummaryCandidate, byIndex: ReadonlyMap<number, SummaryCandidate>, language: string): boolean {
  const text = candidate.narration.trim();
  if (/[?？:：]["'”’»」』)）]*$/u.test(text)) return true;
  if (ANNOUNCING[language.toLowerCase().slice(0, 2)]?.test(text)) return true;
  if (language.toLowerCase().startsWith('en') && TEASING_EN.test(text)) return true;
  // "Radio saved the Eiffel Tower." opening a paragraph is its headline: the rest of it says how.
  const next = byIndex.get(candidate.sentence.index + 1);
  return (
    candidate.paragraphStart === true && next !== undefined && next.paragraphStart !== true && words(text, language).length <= TEASER_WORDS
  );
}

/**
 * The sentence that answers an announcing one: the next, or, for a paragraph's headline ("Radio saved
 * the Eiffel Tower."), the sentence of its paragraph that shares most of its words ("Because the tower
 * had become a vital radio antenna, it was allowed to stay."), the nearest among equals.
 */
function answerTo(
  candidate: SummaryCandidate,
  byIndex: ReadonlyMap<number, SummaryCandidate>,
  language: string,
): SummaryCandidate | undefined {
  const next = byIndex.get(candidate.sentence.index + 1);
  if (!candidate.paragraphStart || !next || next.paragraphStart) return next;
  const terms = new Set(contentTerms(candidate.narration, language));
  let best = next;
  let bestShared = -1;
  for (let index = candidate.sentence.index + 1; ; index++) {
    const member = byIndex.get(index);
    if (!member || member.paragraphStart) break;
    let shared = 0;
    for (const term of new Set(contentTerms(member.narration, language))) if (terms.has(term)) shared += 1;
    if (shared > bestShared && !pointsBack(member.narration, language)) {
      best = member;
      bestShared = shared;
    }
  }
  return best;
}

/** Openings that point back to the sentence before: "This is why…", "For this reason…". */
const POINTING_BACK: Record<string, RegExp> = {
  en: /^(?:but|yet|(?:this|that) (?:is|was|'s) (?:why|how|when|where|what)|(?:this|that|these|those) (?:meant|means)|for (?:this|that|these) reasons?|because of (?:this|that)|as a result|that is)\b/iu,
  de: /^(?:aber|doch|deshalb|deswegen|daher|darum|dadurch|das ist (?:der grund|warum))\b/iu,
  es: /^(?:pero|por eso|por ello|por esta razón|esto (?:explica|significa)|es por eso)\b/iu,
  fr: /^(?:mais|c['’]est pourquoi|c['’]est ainsi|pour cette raison|cela (?:explique|signifie))\b/iu,
  pt: /^(?:mas|por isso|é por isso|por esta razão|isso (?:explica|significa))\b/iu,
  hi: /^(?:इसलिए|इसी कारण|इस वजह से)/u,
  ja: /^(?:そのため|このため|だから|それで)/u,
};

function pointsBack(text: string, language: string): boolean {
  return opensWithPronoun(text, language) || (POINTING_BACK[language.toLowerCase().slice(0, 2)]?.test(text.trim()) ?? false);
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
