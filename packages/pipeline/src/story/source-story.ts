import { STORY_STYLES, topicFromSource, type StoryStyle } from '@reelsmith/contracts';
import type { Scene, Story, StoryRequest, StorySource } from '../providers/types.js';
import { chooseSentences, scoreForTopic, sentenceLayout, type SummaryCandidate } from './extractive-summary.js';
import { loadImagePromptTemplates } from './offline-story-templates.js';
import { stopWordsFor } from './source-stop-words.js';
import { contentTerms, isSpaceless, splitSentences, trimSentence, withoutElision, words, type SourceSentence } from './source-text.js';
import { countNarrationWords } from './story-budget.js';
import { closesAnswer, closingLine, definitionMainClause, topicLine } from './answer-script.js';
import { headlineCase } from './headline-case.js';
import { sentenceCore } from './sentence-core.js';
import { fold, givesReason, questionWordKind, readTopic, sameStem, stems } from './topic-focus.js';

/**
 * Stories told from the creator's own text, offline: a script is said verbatim, an article by its
 * most central sentences. Every narration sentence is a sentence of the source, and each scene
 * remembers which ones it tells.
 */

/** A piece of narration: a whole source sentence, or a clause of one when scenes outnumber sentences. */
interface Unit {
  text: string;
  /** The source sentences it tells: one, or a short answer joined to the sentence it answers. */
  sentences: SourceSentence[];
  words: number;
}

export function tellSource(request: StoryRequest, source: StorySource): Story {
  const title = source.kind === 'article' ? articleTitle(source, request) : request.topic.trim();
  const units = source.kind === 'script' ? scriptUnits(source.text, request.language) : articleUnits(source.text, title, request);
  const sceneWords = Math.max(1, request.targetWords) / Math.max(1, request.sceneCount);
  const scenes = groupIntoScenes(splitLongUnits(units, sceneWords * MAX_SCENE_SHARE, request.language), request.sceneCount);
  const frequency = sentenceFrequency(splitSentences(source.text, request.language), request.language);
  return {
    title: source.kind === 'article' ? videoTitle(title, request) : title,
    scenes: scenes.map((group) => toScene(group, request, frequency)),
  };
}

/**
 * A video that answers a question ("How honeybees talk by dancing", told from "Honey bee") is titled
 * by the question, as the creator asked it (headline case in English); a subject or a pasted
 * article keeps the article's title.
 */
function videoTitle(articleTitle: string, request: StoryRequest): string {
  const topic = request.topic.trim().replace(/[\s.!?¿¡:;,…]+$/u, '');
  if (questionWordKind(topic) === 'subject') return articleTitle;
  const asked = topic.replace(/^[¿¡]\s*/u, '');
  const capitalised = asked.charAt(0).toLocaleUpperCase(request.language) + asked.slice(1);
  return request.language.toLowerCase().startsWith('en') ? headlineCase(capitalised) : capitalised;
}

/** The sandbox's warm-up task (told-apart.ts): loading this module is the work. */
export function telling(): boolean {
  return true;
}

function scriptUnits(text: string, language: string): Unit[] {
  return splitSentences(text, language).map((sentence) => ({
    text: sentence.text,
    sentences: [sentence],
    words: countNarrationWords(sentence.text, language),
  }));
}

/** Sentences shorter than this say too little on their own to be told out of their paragraph. */
const MIN_SENTENCE_WORDS = 4;

/**
 * Sentences of an article that are ranked: ranking compares every pair, so 40,000 one-line sentences
 * would be 1.6 billion pairs. The first thousand (about 20,000 words) hold any article's point.
 */
export const MAX_RANKED_SENTENCES = 1000;

/** A heading this long or shorter, on the article's first line, is its title. */
const MAX_TITLE_WORDS = 16;

/**
 * The video's title for an article: the title it came with; else the topic the creator typed; else
 * (the topic is only the text's first sentence standing in, as the contracts make it) the heading on
 * its first line, or the subject its first sentence defines ("The Eiffel Tower is…").
 */
function articleTitle(source: StorySource, request: StoryRequest): string {
  const given = source.title?.trim();
  if (given) return given;
  const topic = request.topic.trim();
  const language = request.language;
  const sentences = splitSentences(source.text, language);
  const first = sentences[0];
  if (!first || (topic !== topicFromSource({ kind: 'article', text: source.text }) && topic !== first.text)) return topic;
  if (first.fragment && countNarrationWords(first.text, language) <= MAX_TITLE_WORDS) return first.text;
  const subject = DEFINES[language.slice(0, 2)]?.exec(trimSentence(first.text, language))?.[1];
  return subject && countNarrationWords(subject, language) <= 8 ? subject : topic;
}

/** "X is a…": the subject a definition opens with, per language. */
const DEFINES: Record<string, RegExp> = {
  en: /^(.+?)\s(?:is|was|are|were)\s(?:a|an|the|one)\s/u,
  de: /^(.+?)\s(?:ist|war|sind|waren)\s(?:ein|eine|der|die|das)\s/u,
  es: /^(.+?)\s(?:es|fue|son|eran)\s(?:un|una|el|la|los|las)\s/u,
  fr: /^(.+?)\s(?:est|était|sont|étaient)\s(?:un|une|le|la|les)\s/u,
  pt: /^(.+?)\s(?:é|foi|são|eram)\s(?:um|uma|o|a|os|as)\s/u,
  ja: /^(.+?)は/u,
};

function articleUnits(text: string, title: string, request: StoryRequest): Unit[] {
  const { language } = request;
  const sentences = splitSentences(text, language).slice(0, MAX_RANKED_SENTENCES);
  // A researched video answers the topic the creator typed; a pasted article is told for itself.
  const { scores, focused, passage } = scoreForTopic(text, sentences, language, title, request.topic);
  const layout = sentenceLayout(text, sentences);
  const candidates: SummaryCandidate[] = sentences
    .filter((sentence) => !sentence.fragment)
    .map((sentence) => {
      const narration = trimSentence(sentence.text, language);
      return {
        sentence,
        narration,
        words: countNarrationWords(narration, language),
        paragraphStart: layout[sentence.index]!.paragraphStart,
      };
    })
    .filter((candidate) => !/^["“„«「]?\s*$/u.test(candidate.narration))
    .map((candidate) => (candidate.words < MIN_SENTENCE_WORDS ? { ...candidate, answerOnly: true } : candidate));
  const chosen: ScriptLine[] = focused
    ? answerScript(candidates, scores, passage, title, request)
    : chooseSentences(candidates, scores, request.targetWords, language).chosen.map((candidate) => ({ candidate }));
  const units: Unit[] = [];
  const joiner = isSpaceless(language) ? '' : ' ';
  for (const entry of chosen) {
    if (entry.line !== undefined) {
      units.push({ text: entry.line, sentences: [], words: countNarrationWords(entry.line, language) });
      continue;
    }
    const { candidate } = entry;
    const before = units.at(-1);
    // "She dances." is told in the scene of the sentence it answers, never as a scene of its own.
    if (candidate.answerOnly && before && before.sentences.at(-1)?.index === candidate.sentence.index - 1) {
      before.text += joiner + candidate.narration;
      before.sentences.push(candidate.sentence);
      before.words += candidate.words;
    } else units.push({ text: candidate.narration, sentences: [candidate.sentence], words: candidate.words });
  }
  // A line of the topic's is said with the sentence beside it (the first with the one after, the
  // closing one with the one before), so every scene tells some of the article's sentences; only
  // when the article's sentences are fewer than the video's scenes does a line of the topic's take
  // a scene of its own (the first line first, as a title would, then the closing one).
  let spare = request.sceneCount - units.filter((unit) => unit.sentences.length > 0).length;
  const alone = new Set<Unit>();
  for (const unit of [units[0], units.at(-1)]) {
    if (unit && unit.sentences.length === 0 && spare > 0 && !alone.has(unit)) {
      alone.add(unit);
      spare -= 1;
    }
  }
  return mergeTopicLines(units, joiner, alone);
}

/** Units with each line of the topic's (no article sentence) said with its neighbour, but those `alone`. */
function mergeTopicLines(units: readonly Unit[], joiner: string, alone: ReadonlySet<Unit>): Unit[] {
  return units.reduce<Unit[]>((merged, unit, index) => {
    const next = units[index + 1];
    const previous = merged.at(-1);
    if (unit.sentences.length > 0 || alone.has(unit) || (!previous && !next)) merged.push(unit);
    else if (previous) Object.assign(previous, { text: previous.text + joiner + unit.text, words: previous.words + unit.words });
    else if (next) Object.assign(next, { text: unit.text + joiner + next.text, words: unit.words + next.words });
    return merged;
  }, []);
}

/** A line of the script: an article's sentence, or a line made of the topic's words (its first or last). */
type ScriptLine = { candidate: SummaryCandidate; line?: undefined } | { candidate?: undefined; line: string };

/**
 * A researched video's script: a first line that names the subject, the passage that answers the
 * topic in its writer's order, the best of the rest while words remain, and a last line that closes.
 *
 * The first line is the article's definition of its subject when it fits beside the answer (whole,
 * or by its main clause), else the answer's own first sentence when it names the subject, else the
 * topic said as a title or a question: of these, the one that leaves the answer's passage most of
 * its sentences, the definition first among equals. A 30 s video thus goes straight to the answer
 * when the definition would crowd it out; a 60 s one tells both.
 *
 * The last line is the article's when the chosen last sentence concludes or restates the question
 * ("…, so the whole sky looks blue."); otherwise the topic's words said as the answer's end ("That
 * is how the Great Wall of China was built."), when there are words left for it.
 *
 * When the passage does not fit whole, its sentences are said by their heads, one more each time,
 * the longest saving first ("The early walls were made of rammed earth." without ": layers of soil
 * pressed…"; see sentence-core.ts), as long as that tells more of the passage: in bench:research this
 * took the 30 s videos from 3.64 to 4.00 key facts of 5, the 60 s ones unchanged.
 *
 * When the passage opens by restating the question, a plan may ask the question instead and spend
 * that sentence's words, and the closing line's, on the answer: the question frames the video, so
 * its last line may be the answer's last fact. In bench:research this gave Folhas at 30 s the red
 * pigments (4.00 → 4.09 facts of 5, no topic missing more than one).
 */
function answerScript(
  candidates: readonly SummaryCandidate[],
  scores: readonly number[],
  passage: readonly number[],
  title: string,
  request: StoryRequest,
): ScriptLine[] {
  const { language, targetWords, topic } = request;
  const definition = definingSentence(candidates, title, language);
  const openings: Array<{ opening?: SummaryCandidate; line?: string }> = [];
  if (definition) {
    openings.push({ opening: definition });
    const main = definitionMainClause(definition.narration, language);
    if (main) openings.push({ opening: { ...definition, narration: main, words: countNarrationWords(main, language) } });
  }
  openings.push({});
  // A pasted article's topic is its own title: it asks no question for a line of its own to say.
  const asksOwnQuestion = fold(topic).trim() !== fold(title).trim();
  const asked = asksOwnQuestion ? topicLine(topic, language) : '';
  if (asked) openings.push({ line: asked });
  const asking = readTopic(topic, title, language);
  const subjectStems = [...stems(title, language), ...asking.subject];
  const topicStems = [...asking.subject, ...asking.focus];
  // A sentence names the subject when it says the title's or the topic's subject, or restates most of
  // the question ("Zugvögel fliegen im Herbst nach Süden, weil…" for "Warum Zugvögel im Herbst…").
  const namesSubject = (text: string) => {
    const said = stems(text, language);
    const says = (stem: string) => said.some((term) => sameStem(term, stem));
    return subjectStems.some(says) || (topicStems.length > 0 && topicStems.filter(says).length * 2 >= topicStems.length);
  };
  const inPassage = new Set(passage);
  const restatesQuestion = (text: string) => {
    if (!closesAnswer(text, topic, title, language) || givesReason(text, language)) return false;
    const said = stems(text, language);
    const beyond = said.filter(
      (stem) => !subjectStems.some((known) => sameStem(known, stem)) && !topicStems.some((known) => sameStem(known, stem)),
    );
    return beyond.length * 2 <= said.length;
  };
  const closer = asksOwnQuestion ? closingLine(topic, language) : '';
  // A passage sentence said by its head when a short video cannot tell the whole passage (the
  // biggest savings first); never a cut that drops the topic's own words.
  const keepsTopic = (tail: string) => {
    const said = stems(tail, language);
    return topicStems.some((stem) => said.some((term) => sameStem(term, stem)));
  };
  const cores = candidates
    .filter((candidate) => inPassage.has(candidate.sentence.index) && !candidate.answerOnly)
    .flatMap((candidate) => {
      const narration = sentenceCore(candidate.narration, language, keepsTopic);
      const words = narration ? countNarrationWords(narration, language) : 0;
      return narration && words >= MIN_SENTENCE_WORDS && words < candidate.words
        ? [{ core: { ...candidate, narration, words }, saves: candidate.words - words }]
        : [];
    })
    .sort((a, b) => b.saves - a.saves)
    .map(({ core }) => core);
  // A passage that opens by restating the question ("No outono, as folhas de muitas árvores mudam de
  // cor antes de cair." for "Por que as folhas mudam de cor no outono"): a plan that asks the
  // question says that sentence already, and may spend its words on the answer instead. It restates
  // when it says all the question asks and gives no reason, and at least half its words are the
  // question's or the title's ("Los volcanes se forman donde la roca del manto se funde…" answers).
  const first = candidates.find((candidate) => candidate.sentence.index === passage[0]);
  const restated = first && restatesQuestion(first.narration) ? first.sentence.index : undefined;
  let best: { lines: ScriptLine[]; rank: number[] } | undefined;
  for (const { opening, line } of openings) {
    // The only line an opening carries is the asked question.
    const asks = line !== undefined && restated !== undefined;
    const planPassage = asks ? passage.filter((index) => index !== restated) : passage;
    for (const closing of closer ? [false, true] : [false]) {
      const lineWords = (line ? countNarrationWords(line, language) : 0) + (closing ? countNarrationWords(closer, language) : 0);
      // The whole sentences first, then with one more head said for a sentence each time: a plan
      // with more heads is kept only when it tells the passage further (see its rank below).
      let told: { chosen: SummaryCandidate[]; rank: number[] } | undefined;
      let saying = asks ? candidates.filter((candidate) => candidate.sentence.index !== restated) : candidates;
      for (let cut = 0; cut <= cores.length; cut += 1) {
        if (cut > 0) {
          const core = cores[cut - 1]!;
          saying = saying.map((candidate) => (candidate.sentence.index === core.sentence.index ? core : candidate));
        }
        const { chosen } = chooseSentences(saying, scores, targetWords - lineWords, language, opening, planPassage);
        const toldIndexes = new Set(chosen.map((candidate) => candidate.sentence.index));
        if (asks) toldIndexes.add(restated);
        // How far the passage is told without a gap, in its writer's order: its first sentences
        // carry the answer, so a plan that skips one for two shorter ones after it tells less.
        const unbroken = passage.findIndex((index) => !toldIndexes.has(index));
        const inAnswer = chosen.filter((candidate) => inPassage.has(candidate.sentence.index));
        const rank = [
          unbroken === -1 ? passage.length : unbroken,
          inAnswer.length,
          inAnswer.reduce((sum, candidate) => sum + candidate.words, 0),
        ];
        if (told && !outranks(rank.slice(0, 2), told.rank.slice(0, 2))) continue;
        told = { chosen, rank };
        // Every sentence of the passage told: no need to cut another.
        if (unbroken === -1) break;
      }
      const chosen = told?.chosen ?? [];
      if (chosen.length === 0) continue;
      // Without a line of its own, the first sentence told must name what the video is about.
      if (!opening && !line && !namesSubject(chosen[0]!.narration)) continue;
      // A plan whose last sentence told closes needs no closing line; one that does not, says it.
      const closes = closesAnswer(chosen.at(-1)!.narration, topic, title, language);
      const lines: ScriptLine[] = [
        ...(line ? [{ line }] : []),
        ...chosen.map((candidate) => ({ candidate })),
        ...(closing && !closes ? [{ line: closer }] : []),
      ];
      // A plan that ends on a line that closes (or asked the question in place of its restatement)
      // comes first; then the one that tells the answer's passage furthest without a gap, then most
      // of its sentences and words; among equals, the earlier opening (the definition first).
      const rank = [closes || closing || asks ? 1 : 0, ...told!.rank];
      if (!best || outranks(rank, best.rank)) best = { lines, rank };
    }
  }
  if (best) return best.lines;
  return chooseSentences(candidates, scores, targetWords, language, definition, passage).chosen.map((candidate) => ({ candidate }));
}

/** Lexicographic comparison of two plans' ranks. */
function outranks(rank: readonly number[], other: readonly number[]): boolean {
  for (let index = 0; index < rank.length; index += 1) {
    if (rank[index] !== other[index]) return rank[index]! > other[index]!;
  }
  return false;
}

/**
 * The sentence that defines the article's subject: among the first few, the first that names most of
 * the title's words ("Un volcán es…" for "Volcán"), else the article's first sentence. None when it
 * would take more than half the budget: a short video then goes straight to the answer.
 */
function definingSentence(candidates: readonly SummaryCandidate[], title: string, language: string): SummaryCandidate | undefined {
  const titleStems = stems(title, language);
  const first = candidates.slice(0, 3);
  const names = first.find((candidate) => {
    if (candidate.answerOnly) return false;
    const said = stems(candidate.narration, language);
    const named = titleStems.filter((stem) => said.some((term) => sameStem(term, stem))).length;
    return titleStems.length > 0 && named / titleStems.length >= 0.5;
  });
  return names ?? first.find((candidate) => !candidate.answerOnly);
}

/** Conjunctions and articles that cannot end a piece of a sentence ("…playa natal y,"). */
const DANGLING_WORDS = new Set([
  'and',
  'or',
  'but',
  'the',
  'a',
  'an',
  'of',
  'y',
  'o',
  'e',
  'pero',
  'mas',
  'et',
  'ou',
  'mais',
  'und',
  'oder',
  'aber',
  'der',
  'die',
  'das',
  'de',
  'la',
  'le',
  'el',
  'os',
  'as',
  'और',
  'या',
  'कि',
]);

/** Conjunctions a clause may open with, per language (a space before them is the break). */
const CONJUNCTION_BREAK: Record<string, RegExp> = {
  en: / (?=(?:and|but|while|which|because|where|when|so that) )/gu,
  de: / (?=(?:und|aber|während|weil|wobei|sodass) )/gu,
  es: / (?=(?:y|pero|mientras|porque|donde|cuando) )/gu,
  fr: / (?=(?:et|mais|tandis que|parce que|où|quand) )/gu,
  pt: / (?=(?:e|mas|enquanto|porque|onde|quando) )/gu,
  hi: / (?=(?:और|लेकिन|जबकि|क्योंकि|जहाँ|जब) )/gu,
};

/** Words between the break and the comma before it (or, `ahead`, the next comma after it). */
function listItemWords(text: string, language: string, ahead = false): number {
  const parts = text.split(/[,、，]/u);
  const part = ahead ? (parts.length > 1 ? parts[0]! : text + ' x x x') : parts.at(-1)!;
  return countNarrationWords(part, language);
}

/** Clause ends a long sentence may be split at so each scene has something of its own to say. */
const CLAUSE_BREAK = /[,;:—–]\s+|[、，；]/gu;

/**
 * The longest a scene may run, as a share of a scene's words (a 30 s video's scenes say about 16
 * words each: a sentence of up to 40 stays whole in one scene).
 */
const MAX_SCENE_SHARE = 2.5;

/**
 * Scenes change between sentences: a sentence is split (at a clause end: a semicolon, a dash, a
 * comma between clauses) only when it alone is longer than a scene may run, and then as often as it
 * must be. The video has fewer, longer scenes rather than a sentence cut to reach a scene count.
 */
function splitLongUnits(units: Unit[], maxWords: number, language: string): Unit[] {
  const result: Unit[] = [];
  const pending = [...units];
  while (pending.length > 0) {
    const unit = pending.shift()!;
    const halves = unit.words > maxWords ? splitClause(unit, language) : null;
    if (halves) pending.unshift(...halves);
    else result.push(unit);
  }
  return result;
}

function splitClause(unit: Unit, language: string): [Unit, Unit] | null {
  const minimum = 3;
  let best: { at: number; balance: number } | null = null;
  for (const match of unit.text.matchAll(CLAUSE_BREAK)) {
    const at = match.index + match[0].length;
    const left = countNarrationWords(unit.text.slice(0, at), language);
    const right = countNarrationWords(unit.text.slice(at), language);
    if (left < minimum || right < minimum) continue;
    // "…de su playa natal y, | años después…": a piece that ends on a little word breaks a phrase, not a clause.
    const lastWord = words(unit.text.slice(0, match.index), language).at(-1)?.toLocaleLowerCase(language) ?? '';
    if (DANGLING_WORDS.has(lastWord)) continue;
    // "a tower, building, | or other type…": a comma between list items is not a clause end.
    if (
      /^[,、，]/u.test(match[0]) &&
      (listItemWords(unit.text.slice(0, match.index), language) <= 2 || listItemWords(unit.text.slice(at), language, true) <= 2)
    )
      continue;
    // A semicolon, colon or dash ends a clause more surely than a comma does.
    const balance = Math.abs(left - right) + (/^[,、，]/u.test(match[0]) ? 2 : 0);
    if (!best || balance < best.balance) best = { at, balance };
  }
  // Without punctuation to split at, a long sentence may still be split before a conjunction that
  // opens a clause of its own ("…lamps and lenses | and to serve as a navigational aid…").
  const conjunction = CONJUNCTION_BREAK[language.slice(0, 2)];
  if (!best && conjunction) {
    for (const match of unit.text.matchAll(conjunction)) {
      const at = match.index + 1;
      const left = countNarrationWords(unit.text.slice(0, at), language);
      const right = countNarrationWords(unit.text.slice(at), language);
      if (left < 5 || right < 5) continue;
      // "lamps | and lenses and…" joins two things, not two clauses: the piece up to the next
      // conjunction or comma must say more than a word or two.
      const afterConjunction = unit.text.slice(at).replace(/^\S+\s*/u, '');
      const item = afterConjunction.split(new RegExp(conjunction.source, 'u'))[0]!.split(/[,;:]/u)[0]!;
      if (countNarrationWords(item, language) <= 2) continue;
      const balance = Math.abs(left - right);
      if (!best || balance < best.balance) best = { at, balance };
    }
  }
  if (!best) return null;
  const first = unit.text.slice(0, best.at).trim();
  const second = unit.text.slice(best.at).trim();
  return [
    { text: first, sentences: unit.sentences, words: countNarrationWords(first, language) },
    { text: second, sentences: unit.sentences, words: countNarrationWords(second, language) },
  ];
}

/**
 * Contiguous groups of units, at most `sceneCount`, whose lengths are as even as possible (least
 * squared difference from the mean), so scenes last about as long as a topic video's do.
 */
function groupIntoScenes(units: readonly Unit[], sceneCount: number): Unit[][] {
  const count = Math.max(1, Math.min(sceneCount, units.length));
  if (units.length === 0) return [];
  const prefix = [0];
  for (const unit of units) prefix.push(prefix.at(-1)! + unit.words);
  const mean = prefix.at(-1)! / count;
  const n = units.length;
  // cost[k][i]: best cost of the first i units in k groups; cut[k][i] where the last group starts.
  const cost = Array.from({ length: count + 1 }, () => new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY));
  const cut = Array.from({ length: count + 1 }, () => new Array<number>(n + 1).fill(0));
  cost[0]![0] = 0;
  for (let k = 1; k <= count; k++) {
    for (let i = k; i <= n; i++) {
      for (let j = k - 1; j < i; j++) {
        const previous = cost[k - 1]![j]!;
        if (!Number.isFinite(previous)) continue;
        const size = prefix[i]! - prefix[j]!;
        const value = previous + (size - mean) ** 2;
        if (value < cost[k]![i]!) {
          cost[k]![i] = value;
          cut[k]![i] = j;
        }
      }
    }
  }
  const groups: Unit[][] = [];
  let end = n;
  for (let k = count; k >= 1; k--) {
    const start = cut[k]![end]!;
    groups.unshift(units.slice(start, end));
    end = start;
  }
  return groups;
}

/** In how many of the source's sentences each content term appears. */
function sentenceFrequency(sentences: readonly SourceSentence[], language: string): Map<string, number> {
  const documents = new Map<string, number>();
  for (const sentence of sentences) {
    for (const term of new Set(contentTerms(sentence.text, language))) documents.set(term, (documents.get(term) ?? 0) + 1);
  }
  return documents;
}

/**
 * English words that are common verbs and adverbs: a picture cannot show "tells" or "usually".
 * Other languages rely on frequency alone, where the article's recurring words are mostly its nouns.
 */
const NOT_PICTURABLE_EN =
  /(?:ly|ed|ing)$|^(?:tells?|told|says?|said|shows?|showed|shown|found|finds?|makes?|gives?|gave|given|takes?|took|uses?|used|means?|meant|goes|went|gets?|got|knows?|knew|thinks?|thought|seems?|becomes?|became|remains?|points?|whose|different|several|first|last|way|ways|thing|things|lot|kind|part|little|less|least|great|good|best|better|long|longer|large|small|even|well|really|whole|single|exact|same|another|every|known|other|others)$/u;
const MAX_PROMPT_SUBJECTS = 5;
/** Little words inside a name ("Champ de Mars", "Statue of Liberty", "Rio de Janeiro"). */
const NAME_JOINERS = new Set(['of', 'de', 'du', 'des', 'del', 'la', 'le', 'da', 'do', 'dos', 'das', 'von', 'van', 'y']);

/**
 * What a scene's picture shows: the named things and the most telling nouns of the scene's own
 * sentences (rarest in the source first), then the style's mood and the visual style's look.
 */
function sceneSubjects(text: string, language: string, frequency: ReadonlyMap<string, number>): string[] {
  const stop = stopWordsFor(language);
  const spaceless = isSpaceless(language);
  // German writes every noun with a capital, so there a capital does not mark a name.
  const capitalMarksName = ['en', 'es', 'fr', 'pt'].includes(language.slice(0, 2));
  const tokens = words(text, language).map((token) => withoutElision(token, language));
  const phrases: Array<{ surface: string; score: number; order: number }> = [];
  const seen = new Set<string>();
  let order = 0;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const lower = token.toLocaleLowerCase(language);
    if (stop.has(lower) || /^\p{N}+$/u.test(token)) continue;
    if (spaceless ? /^[\p{Script=Hiragana}ー]+$/u.test(token) : token.length < 3) continue;
    if (language.startsWith('en') && NOT_PICTURABLE_EN.test(lower)) continue;
    // A word in capitals for emphasis ("A LIGHTHOUSE is…") is the ordinary word; short ones are acronyms.
    let surface = token.length > 4 && token === token.toLocaleUpperCase(language) ? lower : token;
    let named = false;
    const startsName = index > 0 || /^\p{Lu}/u.test(tokens[index + 1] ?? '');
    if (capitalMarksName && /^\p{Lu}/u.test(surface) && startsName) {
      // A run of capitalised words is one name ("Marie Curie", "Rio de Janeiro" keeps its "de").
      named = true;
      for (;;) {
        if (index + 1 < tokens.length && /^\p{Lu}/u.test(tokens[index + 1]!)) surface += ` ${tokens[++index]!}`;
        // "Champ de Mars" is one name: its "Mars" alone would be a planet.
        else if (index + 2 < tokens.length && NAME_JOINERS.has(tokens[index + 1]!) && /^\p{Lu}/u.test(tokens[index + 2]!)) {
          surface += ` ${tokens[index + 1]!} ${tokens[index + 2]!}`;
          index += 2;
        } else break;
      }
    }
    const [term] = contentTerms(surface.split(' ')[0]!, language);
    const key = surface.toLocaleLowerCase(language);
    if (seen.has(key)) continue;
    seen.add(key);
    // The article's recurring words are what it is about (bees, hive, dance); a name is a subject too,
    // and in German the capital marks a noun, which a picture can show.
    const noun = language.startsWith('de') && /^\p{Lu}/u.test(token) && index > 0;
    const weight =
      Math.log(1 + (term ? (frequency.get(term) ?? 1) : 1)) *
      (named ? 2 : noun ? 1.5 : 1) *
      (spaceless ? Math.min(2, Array.from(token).length / 2) : 1);
    phrases.push({ surface, score: weight, order: order++ });
  }
  return phrases
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_PROMPT_SUBJECTS)
    .sort((a, b) => a.order - b.order)
    .map((phrase) => phrase.surface);
}

function toScene(group: readonly Unit[], request: StoryRequest, frequency: ReadonlyMap<string, number>): Scene {
  const joiner = isSpaceless(request.language) ? '' : ' ';
  const narration = group.map((unit) => unit.text).join(joiner);
  const images = loadImagePromptTemplates();
  const styleKey = (STORY_STYLES as readonly string[]).includes(request.style) ? (request.style as StoryStyle) : 'custom';
  const mood = images.moods[styleKey];
  const look = images.visualStyles[request.visualStyle] ?? images.visualStyles.cinematic;
  const subjects = sceneSubjects(narration, request.language, frequency);
  const sourceSentences = [...new Set(group.flatMap((unit) => unit.sentences.map((sentence) => sentence.text)))];
  return {
    narration,
    imagePrompt: [subjects.join(', ') || request.topic, mood, look].join(', '),
    sourceSentences,
  };
}
