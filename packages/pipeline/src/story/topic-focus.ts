import { createRequire } from 'node:module';
import { stopWordsFor } from './source-stop-words.js';
import { isSpaceless, withoutElision, words, type SourceSentence } from './source-text.js';

/**
 * The topic read as a question: what kind ("Why…", "Cómo…", "Warum…") and which of its words the
 * answer must say (stemmed in the article's language). A researched article is about the topic's
 * subject as a whole; the sentences that answer the question are those that say its other words.
 */

const require = createRequire(import.meta.url);
const snowball = require('snowball-stemmers') as { newStemmer(algorithm: string): { stem(word: string): string } };

const STEMMERS: Record<string, string> = { en: 'english', es: 'spanish', fr: 'french', de: 'german', pt: 'portuguese', it: 'italian' };
const stemmers = new Map<string, { stem(word: string): string } | null>();
const base = (language: string) => language.toLowerCase().slice(0, 2);

function stemmerFor(language: string): { stem(word: string): string } | null {
  const key = base(language);
  if (!stemmers.has(key)) stemmers.set(key, STEMMERS[key] ? snowball.newStemmer(STEMMERS[key]) : null);
  return stemmers.get(key)!;
}

/** Lower case without accents ("Formación" → "formacion"). */
export const fold = (text: string): string => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

export type QuestionKind = 'why' | 'how' | 'what' | 'when' | 'who' | 'where' | 'subject';

/** Question words per kind, folded, in every narration language (one list: a topic may mix). */
const QUESTION_WORDS: Record<Exclude<QuestionKind, 'subject'>, string[]> = {
  why: ['why', 'warum', 'wieso', 'weshalb', 'weswegen', 'por que', 'porque', 'pourquoi', 'क्यों', 'なぜ', 'どうして'],
  how: ['how', 'wie', 'como', 'comment', 'कैसे', 'どう', 'どのように', 'どうやって'],
  when: ['when', 'wann', 'cuando', 'quand', 'quando', 'कब', 'いつ'],
  who: ['who', 'wer', 'quien', 'quienes', 'qui', 'quem', 'कौन', '誰'],
  where: ['where', 'wo', 'donde', 'ou', 'onde', 'कहाँ', 'どこ'],
  what: ['what', 'was', 'que', 'quoi', 'o que', 'क्या', '何'],
};

/** Words that, in a sentence, give a reason: a "why" topic's answer usually holds one. */
const REASON_WORDS: Record<string, RegExp> = {
  en: /\b(?:because|reason|causes?|caused|due to|so that|therefore)\b|, so\b/iu,
  de: /\b(?:weil|denn|grund|gründe|ursache|deshalb|darum|daher|ausgelöst|verursacht)\b/iu,
  es: /\b(?:porque|causa|causan|razón|debido|por eso|por ello|explica|viene de)\b/iu,
  fr: /\b(?:parce que|car|cause|raison|à cause|c['’]est pourquoi|explique|vient de)\b/iu,
  pt: /\b(?:porque|causa|razão|devido|por isso|explica|vem d[aoe])\b/iu,
};

/** Headings that say how something comes about or works, or why: a "how"/"why" topic's section. */
const HEADING_CUES: Partial<Record<QuestionKind, RegExp>> = {
  how: /^(?:construction|formation|mechanism|process|operation|function|working|design|method|entstehung|bau|aufbau|funktion|funktionsweise|formacion|construccion|funcionamiento|mecanismo|proceso|fonctionnement|mecanisme|formacao|construcao|processo)/u,
  why: /^(?:causes?|reasons?|origins?|explanation|ursache|ursachen|grunde?|grund|erklarung|causas?|razon|razones|origen|raisons?|origine|explication|razoes|razao|origem)/u,
  when: /^(?:history|chronology|timeline|geschichte|historia|histoire|historique|cronologia)/u,
  who: /^(?:people|biography|life|leben|biografia|biographie|vida)/u,
};

export interface TopicFocus {
  kind: QuestionKind;
  /** Stems of the topic's words the article's title does not already say: what the answer is about. */
  focus: string[];
  /** Stems of the topic's words the title says too: the subject. */
  subject: string[];
}

/** The stems of a text's content words: folded, stop words dropped, snowball-stemmed where the language has one. */
export function stems(text: string, language: string): string[] {
  const stop = stopWordsFor(language);
  const stemmer = stemmerFor(language);
  const spaceless = isSpaceless(language);
  const out: string[] = [];
  for (const raw of words(text, language)) {
    const word = withoutElision(raw, language).toLocaleLowerCase(base(language));
    if (stop.has(word) || /^\p{N}+$/u.test(word)) continue;
    if (spaceless) {
      if (/^[\p{Script=Hiragana}ー]+$/u.test(word)) continue;
      out.push(word);
      continue;
    }
    if (word.length < 3) continue;
    out.push(stemOf(word, language, stemmer));
  }
  return out;
}

/** Stems already worked out, per language: an article says its words again and again. */
const stemCache = new Map<string, Map<string, string>>();
const MAX_CACHED_STEMS = 50_000;

function stemOf(word: string, language: string, stemmer: { stem(word: string): string } | null): string {
  const key = base(language);
  let cache = stemCache.get(key);
  if (!cache) stemCache.set(key, (cache = new Map()));
  let stem = cache.get(word);
  if (stem === undefined) {
    stem = fold(stemmer ? stemmer.stem(word) : word);
    if (cache.size >= MAX_CACHED_STEMS) cache.clear();
    cache.set(word, stem);
  }
  return stem;
}

/**
 * Two stems for one word: equal, or sharing most of their letters from the start ("built" and
 * "builder", "form" and "formacion", "scatter" and "scattering").
 */
export function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 4) return false;
  let common = 0;
  while (common < shorter && a[common] === b[common]) common += 1;
  return common >= 4 && common >= 0.75 * shorter;
}

const hasStem = (terms: readonly string[], stem: string): boolean => terms.some((term) => sameStem(term, stem));

/** The kind of question a topic's first word asks ("Why…", "¿Cómo…"), or 'subject' when it asks none. */
export function questionWordKind(topic: string): QuestionKind {
  const folded = fold(topic).trim();
  for (const [name, list] of Object.entries(QUESTION_WORDS) as Array<[QuestionKind, string[]]>) {
    if (list.some((word) => folded.startsWith(`${word} `) || folded.startsWith(`¿${word} `))) return name;
  }
  return 'subject';
}

export function readTopic(topic: string, title: string, language: string): TopicFocus {
  const folded = fold(topic).trim();
  let kind = questionWordKind(topic);
  // "What causes…", "Qu'est-ce qui cause…" ask why.
  if (kind === 'what' && /\b(?:caus|provoc|verursach|ausl)/u.test(folded)) kind = 'why';
  // "L'histoire de…", "The history of…", "Geschichte der…" ask when and how it happened.
  if (
    kind === 'subject' &&
    /^(?:the )?(?:history|histoire|l['’]histoire|historia|la historia|geschichte|die geschichte|a historia)\b/u.test(folded)
  )
    kind = 'when';
  const titleStems = stems(title, language);
  const question = new Set(Object.values(QUESTION_WORDS).flat());
  const topicStems = stems(
    words(topic, language)
      .filter((word) => !question.has(fold(word)))
      .join(' '),
    language,
  );
  const focus: string[] = [];
  const subject: string[] = [];
  for (const stem of new Set(topicStems)) (hasStem(titleStems, stem) ? subject : focus).push(stem);
  return { kind, focus, subject };
}

/** The share of the focus a text says (each focus stem once), 0 when there is no focus. */
export function focusShare(text: string, focus: readonly string[], language: string): number {
  if (focus.length === 0) return 0;
  const said = stems(text, language);
  return focus.filter((stem) => hasStem(said, stem)).length / focus.length;
}

export function givesReason(text: string, language: string): boolean {
  return REASON_WORDS[base(language)]?.test(text) ?? false;
}

/** A heading that answers the question by its kind ("Construction" for a "how") or says a focus word. */
export function headingMatches(heading: string, topic: TopicFocus, language: string): number {
  // A heading that asks a question of another kind answers that one: "Dónde se forman" says where
  // volcanoes form, not how ("Formación"), though it says the topic's words.
  const asks = questionWordKind(heading);
  if (asks !== 'subject' && asks !== topic.kind) return 0;
  const share = focusShare(heading, topic.focus, language);
  const cue = asks === topic.kind || HEADING_CUES[topic.kind]?.test(fold(heading).trim()) ? 1 : 0;
  return Math.min(1, share + cue);
}

/**
 * The paragraphs (runs of sentences on one line) and the heading each falls under, for each sentence:
 * the index of its paragraph, and its section's heading ('' before the first).
 */
export function paragraphsOf(
  layout: ReadonlyArray<{ paragraphStart: boolean }>,
  sentences: readonly SourceSentence[],
): { paragraph: number[]; heading: string[] } {
  const paragraph: number[] = [];
  const heading: string[] = [];
  let current = -1;
  let section = '';
  sentences.forEach((sentence, index) => {
    if (sentence.fragment && layout[index]!.paragraphStart) section = sentence.text;
    if (layout[index]!.paragraphStart) current += 1;
    paragraph.push(Math.max(0, current));
    heading.push(section);
  });
  return { paragraph, heading };
}
