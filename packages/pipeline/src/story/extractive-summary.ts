import { stopWordsFor } from './source-stop-words.js';
import { contentTerms, words, type SourceSentence } from './source-text.js';
import { givesReason, headingMatches, paragraphsOf, readTopic, sameStem, stems } from './topic-focus.js';

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
 * A sentence's worth as the answer to the creator's topic (a researched video): what it says of the
 * topic's own words beyond the subject (stemmed), how much its paragraph says of them and whether
 * its section's heading matches the question ("Formación" for "Cómo se forman…", "Construction" for
 * "How … was built"), whether it gives a reason for a "why", then its centrality and place as
 * `scoreSentences` weighs them. With nothing to focus on (the topic is the title, the text's own
 * first sentence standing in, or words the article never says) it is `scoreSentences` itself, and
 * `focused` is false.
 */
export function scoreForTopic(
  text: string,
  sentences: readonly SourceSentence[],
  language: string,
  title: string,
  topic: string,
): { scores: number[]; focused: boolean; passage: number[] } {
  const general = scoreSentences(text, sentences, language, title);
  const focus = readTopic(topic, title, language);
  if (focus.focus.length === 0 && focus.kind === 'subject') return { scores: general, focused: false, passage: [] };
  const layout = sentenceLayout(text, sentences);
  const { paragraph, heading } = paragraphsOf(layout, sentences);
  // The paragraphs' text, the reasons they give and the heading they fall under.
  const paragraphs = new Map<number, { text: string; heading: string; reasons: number; sentences: number }>();
  const reasons = sentences.map((sentence) => focus.kind === 'why' && !sentence.fragment && givesReason(sentence.text, language));
  sentences.forEach((sentence, index) => {
    if (sentence.fragment) return;
    const entry = paragraphs.get(paragraph[index]!) ?? { text: '', heading: heading[index]!, reasons: 0, sentences: 0 };
    entry.text += ` ${sentence.text}`;
    entry.sentences += 1;
    if (reasons[index]) entry.reasons += 1;
    paragraphs.set(paragraph[index]!, entry);
  });
  // A focus word few paragraphs say tells the answer's paragraph apart; one every paragraph says
  // ("light" in an article on the northern lights) hardly does.
  const weights = focusWeights(
    focus.focus,
    [...paragraphs.values()].map((entry) => entry.text),
    language,
  );
  // A topic none of whose words the article says beyond its subject ("A topic" over a pasted text)
  // asks nothing of it: it is told for itself.
  if (focus.kind === 'subject' && [...weights.values()].every((weight) => weight === 0))
    return { scores: general, focused: false, passage: [] };
  const shares = sentences.map((sentence) => (sentence.fragment ? 0 : weightedShare(sentence.text, weights, language)));
  const relevance = new Map<number, number>();
  for (const [key, entry] of paragraphs) {
    const own = sentences.map((_sentence, index) => index).filter((index) => paragraph[index] === key);
    const density = own.reduce((sum, index) => sum + shares[index]!, 0) / Math.sqrt(Math.max(1, entry.sentences));
    relevance.set(
      key,
      weightedShare(entry.text, weights, language) +
        0.5 * density +
        Math.min(1, entry.reasons) * 0.5 +
        (entry.heading ? headingMatches(entry.heading, focus, language) : 0),
    );
  }
  const best = Math.max(1e-9, ...relevance.values());
  const w = TOPIC_WEIGHTS;
  const places = new Map<number, number>();
  const scores = sentences.map((sentence, index) => {
    if (sentence.fragment) return 0;
    const share = (relevance.get(paragraph[index]!) ?? 0) / best;
    const place = places.get(paragraph[index]!) ?? 0;
    places.set(paragraph[index]!, place + 1);
    return (
      w.general * general[index]! +
      w.sentence * shares[index]! +
      w.paragraph * share * share +
      // The answer's paragraph is told from its start, as its writer built it up.
      (share > 0.999 ? w.answerLead / (1 + place * 0.4) : 0) +
      (reasons[index] ? w.reason : 0)
    );
  });
  return { scores, focused: true, passage: answerPassage(sentences, paragraph, relevance) };
}

/**
 * The passage that answers the topic: the sentences from the start of the most relevant paragraph
 * to the end of its section (the next heading). Its writer built the answer up in that order, so a
 * short video tells it from there, sentence after sentence, before anything else.
 */
function answerPassage(
  sentences: readonly SourceSentence[],
  paragraph: readonly number[],
  relevance: ReadonlyMap<number, number>,
): number[] {
  let bestKey = -1;
  let bestValue = 0;
  for (const [key, value] of relevance) {
    if (value > bestValue) {
      bestKey = key;
      bestValue = value;
    }
  }
  if (bestKey < 0) return [];
  const passage: number[] = [];
  for (let index = paragraph.indexOf(bestKey); index >= 0 && index < sentences.length; index++) {
    if (sentences[index]!.fragment) {
      if (passage.length > 0) break;
      continue;
    }
    passage.push(index);
  }
  return passage;
}

/** Each focus stem's weight: rarer among the paragraphs weighs more; a stem no paragraph says, nothing. */
function focusWeights(focus: readonly string[], paragraphs: readonly string[], language: string): Map<string, number> {
  const said = paragraphs.map((text) => stems(text, language));
  const raw = focus.map((stem) => {
    const count = said.filter((terms) => terms.some((term) => sameStem(term, stem))).length;
    return count === 0 ? 0 : Math.log(1 + paragraphs.length / count);
  });
  const total = raw.reduce((sum, value) => sum + value, 0);
  return new Map(focus.map((stem, index) => [stem, total > 0 ? raw[index]! / total : 0]));
}

function weightedShare(text: string, weights: ReadonlyMap<string, number>, language: string): number {
  const said = stems(text, language);
  let share = 0;
  for (const [stem, weight] of weights) if (said.some((term) => sameStem(term, stem))) share += weight;
  return share;
}

/** How much each signal weighs in `scoreForTopic` (tuned with `npm run bench:research`). */
export const TOPIC_WEIGHTS = { general: 0.5, sentence: 1.5, paragraph: 3, answerLead: 1, reason: 0.5 };

/**
 * Picks the best-scored sentences, best first, while they fit in `targetWords`, then puts them back
 * in the source's order. A sentence that would overflow the budget is passed over for the next best
 * one that fits; only the better-ranked part of the text is considered, so a short filler from the
 * article's margins never stands in for its point. A sentence that says nearly what a chosen one
 * says is skipped. A sentence is told with the sentences it needs: one that points back ("He…",
 * "This is why…", "These molecules…", "Ensuite…", "The third…") with the one before it, one that
 * names someone an earlier sentence introduced ("Smeaton's design…") with that sentence, one that
 * opens an enumeration ("Two branchial hearts…") with the sentence that ends it, one that announces
 * what follows (a question, a colon, "Not everyone…", a short paragraph opener) with the sentence
 * after it; when they do not fit together, none is told, so the narration never teases, stops or
 * refers to what it did not say. `opening` (the sentence that defines the subject) is taken first,
 * then the sentences of `passage` (the answer, `scoreForTopic`'s) in order, as far as they fit.
 */
export function chooseSentences(
  candidates: readonly SummaryCandidate[],
  scores: readonly number[],
  targetWords: number,
  language: string,
  opening?: SummaryCandidate,
  passage: readonly number[] = [],
): SummaryChoice {
  const ranked = [...candidates].sort(
    (a, b) => scores[b.sentence.index]! - scores[a.sentence.index]! || a.sentence.index - b.sentence.index,
  );
  const considered = ranked.filter((candidate) => !candidate.answerOnly).slice(0, Math.max(8, Math.ceil(ranked.length * 0.5)));
  const byIndex = new Map(candidates.map((candidate) => [candidate.sentence.index, candidate]));
  const introducers = nameIntroducers(candidates, language);
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
  // What a candidate needs told with it, or null when something it needs cannot be told.
  const needs = (candidate: SummaryCandidate): SummaryCandidate[] | null => {
    const needed: SummaryCandidate[] = [];
    const index = candidate.sentence.index;
    if (pointsBack(candidate.narration, language) || continuesEnumeration(candidate.narration, language)) {
      const before = byIndex.get(index - 1);
      if (!before) return null;
      needed.push(before);
    }
    for (const introducer of introducers.get(index) ?? []) {
      const by = byIndex.get(introducer);
      if (by) needed.push(by);
    }
    const next = byIndex.get(index + 1);
    if (next && opensEnumeration(candidate.narration, language) && continuesEnumeration(next.narration, language)) needed.push(next);
    // The opening defines the subject: short as it may be, it is no headline the next sentence must follow.
    if (announces(candidate, byIndex, language, candidate !== opening)) {
      const answer = answerTo(candidate, byIndex, language);
      if (!answer) return null;
      needed.push(answer);
    }
    return needed;
  };
  // The candidate and, transitively, what it needs that is not told yet (a few sentences at most).
  const unitOf = (candidate: SummaryCandidate): SummaryCandidate[] | null => {
    const unit = new Map<number, SummaryCandidate>([[candidate.sentence.index, candidate]]);
    const queue = [candidate];
    while (queue.length > 0) {
      const member = queue.shift()!;
      const wanted = needs(member);
      if (!wanted) return null;
      for (const other of wanted) {
        if (chosenIndexes.has(other.sentence.index) || unit.has(other.sentence.index)) continue;
        if (unit.size >= MAX_UNIT_SENTENCES) return null;
        unit.set(other.sentence.index, other);
        queue.push(other);
      }
    }
    return [...unit.values()];
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
  if (opening) take(opening);
  // The answer's passage is told in its writer's order, as far as it fits (a sentence that does not
  // fit is passed over for the next that does); then the best of the rest.
  for (const index of passage) {
    const candidate = byIndex.get(index);
    if (candidate && !candidate.answerOnly) take(candidate);
  }
  for (const candidate of considered) take(candidate);
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

/** The most sentences told together because one needs the others. */
const MAX_UNIT_SENTENCES = 4;

/** Capitalised words inside a sentence (not its first word) in languages where a capital marks a name. */
const NAME_LANGUAGES = new Set(['en', 'es', 'fr', 'pt', 'it']);

/**
 * For each candidate, the earlier sentence that introduces a person it calls by one name: "Smeaton's
 * design became the model…" needs "John Smeaton rebuilt the lighthouse…". A name said in full ("John
 * Smeaton", "Bell Rock") introduces itself; its last word alone, in a later sentence, refers back to
 * the first sentence that said it in full.
 */
function nameIntroducers(candidates: readonly SummaryCandidate[], language: string): Map<number, number[]> {
  const result = new Map<number, number[]>();
  if (!NAME_LANGUAGES.has(language.toLowerCase().slice(0, 2))) return result;
  const stop = stopWordsFor(language);
  const capital = (token: string) => /^\p{Lu}\p{Ll}+/u.test(token) && !stop.has(token.toLowerCase());
  // Runs of capitalised words in a sentence: ["John", "Smeaton"], ["Smeaton"].
  const runsOf = (text: string): string[][] => {
    const runs: string[][] = [];
    let run: string[] = [];
    for (const token of words(text, language)) {
      if (capital(token)) run.push(token);
      else if (run.length > 0) {
        runs.push(run);
        run = [];
      }
    }
    if (run.length > 0) runs.push(run);
    return runs;
  };
  const introducedBy = new Map<string, number>();
  const sorted = [...candidates].sort((a, b) => a.sentence.index - b.sentence.index);
  for (const candidate of sorted) {
    const needed = new Set<number>();
    for (const run of runsOf(candidate.narration)) {
      if (run.length > 1) {
        const last = run.at(-1)!;
        if (!introducedBy.has(last)) introducedBy.set(last, candidate.sentence.index);
        continue;
      }
      const at = introducedBy.get(run[0]!);
      if (at !== undefined && at !== candidate.sentence.index) needed.add(at);
    }
    if (needed.size > 0) result.set(candidate.sentence.index, [...needed]);
  }
  return result;
}

/** "Two branchial hearts…", "Zwei Kiemenherzen…": a sentence that counts what the next ones go through. */
const OPENS_ENUMERATION: Record<string, RegExp> = {
  en: /\b(?:two|three|four|several)\b/iu,
  de: /\b(?:zwei|drei|vier|mehrere)\b/iu,
  es: /\b(?:dos|tres|cuatro|varios|varias)\b/iu,
  fr: /\b(?:deux|trois|quatre|plusieurs)\b/iu,
  pt: /\b(?:dois|duas|três|quatro|vários|várias)\b/iu,
};

/** "The third heart…", "Das dritte Herz…", "L'autre…": a sentence that goes on with an enumeration. */
const CONTINUES_ENUMERATION: Record<string, RegExp> = {
  en: /^(?:the )?(?:second|third|fourth|other|latter|remaining|last|another|a third|finally)\b/iu,
  de: /^(?:der|die|das|ein|eine)? ?(?:zweite|dritte|vierte|andere|übrige|letzte|weitere)\w*\b/iu,
  es: /^(?:el|la|los|las|un|una)? ?(?:segund|tercer|cuart|otr|últim|restante)\w*\b/iu,
  fr: /^(?:le|la|les|l['’]|un|une)? ?(?:second|deuxième|troisième|quatrième|autre|dernier|dernière|enfin)\w*\b/iu,
  pt: /^(?:o|a|os|as|um|uma)? ?(?:segund|terceir|quart|outr|últim|restante)\w*\b/iu,
};

function opensEnumeration(text: string, language: string): boolean {
  return OPENS_ENUMERATION[language.toLowerCase().slice(0, 2)]?.test(text) ?? false;
}

function continuesEnumeration(text: string, language: string): boolean {
  return CONTINUES_ENUMERATION[language.toLowerCase().slice(0, 2)]?.test(text.trim()) ?? false;
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

function announces(
  candidate: SummaryCandidate,
  byIndex: ReadonlyMap<number, SummaryCandidate>,
  language: string,
  headline = true,
): boolean {
  const text = candidate.narration.trim();
  if (/[?？:：]["'”’»」』)）]*$/u.test(text)) return true;
  if (ANNOUNCING[language.toLowerCase().slice(0, 2)]?.test(text)) return true;
  if (language.toLowerCase().startsWith('en') && TEASING_EN.test(text)) return true;
  // "Radio saved the Eiffel Tower." opening a paragraph is its headline: the rest of it says how.
  if (!headline) return false;
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
  en: /^(?:but|yet|then|later|afterwards|(?:this|that) (?:is|was|'s) (?:why|how|when|where|what)|(?:this|that|these|those|such)|for (?:this|that|these) reasons?|because of (?:this|that)|as a result|that is)\b/iu,
  de: /^(?:aber|doch|deshalb|deswegen|daher|darum|dadurch|danach|dann|dabei|dies|diese|dieser|dieses|diesen|das ist (?:der grund|warum))\b/iu,
  es: /^(?:pero|por eso|por ello|por esta razón|así|entonces|luego|este|esta|estos|estas|esto|ese|esa|esos|esas|eso|es por eso)\b/iu,
  fr: /^(?:mais|ensuite|puis|alors|ce|cet|cette|ces|cela|ceci|c['’]est pourquoi|c['’]est ainsi|pour cette raison)\b/iu,
  pt: /^(?:mas|então|depois|assim|este|esta|estes|estas|isto|esse|essa|esses|essas|isso|por isso|é por isso|por esta razão)\b/iu,
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
