import type { VideoLanguage } from '@reelsmith/contracts';

/**
 * French, Spanish and Portuguese merge a preposition with a following article ("de le" is "du",
 * "de el" is "del", "em o" is "no"). Creators often type a topic with its article ("le Triangle
 * des Bermudes"), so a template's "de {topic}" would read wrongly. The merge is applied only at
 * the seam between a template's preposition and a slot value, so the rest of the template and
 * the typed words themselves stay as they are.
 */
const CONTRACTIONS: Partial<Record<VideoLanguage, Readonly<Record<string, string>>>> = {
  // German templates name the topic in apposition ("beim Thema Vulkane"): a typed article goes.
  // A typed article is nominative; after "von" (dative) and "über" (accusative) it changes or merges.
  de: {
    'thema der': 'Thema',
    'thema die': 'Thema',
    'thema das': 'Thema',
    'themas der': 'Themas',
    'themas die': 'Themas',
    'themas das': 'Themas',
    'von der': 'vom',
    'von das': 'vom',
    'von die': 'von der',
    'über der': 'über den',
  },
  fr: { 'de le': 'du', 'de les': 'des', 'à le': 'au', 'à les': 'aux' },
  es: { 'de el': 'del', 'a el': 'al' },
  pt: {
    'de o': 'do',
    'de a': 'da',
    'de os': 'dos',
    'de as': 'das',
    'em o': 'no',
    'em a': 'na',
    'em os': 'nos',
    'em as': 'nas',
    'a o': 'ao',
    'a os': 'aos',
    'a a': 'à',
    'a as': 'às',
    'por o': 'pelo',
    'por a': 'pela',
    'por os': 'pelos',
    'por as': 'pelas',
  },
};

/**
 * Question words a topic may open with that templates also put before it ("know why {topic}"); only
 * these are never right twice in a row ("that that" and French "de de Gaulle" can be).
 */
const ENGLISH_QUESTION_WORDS = new Set(['why', 'how', 'what', 'when', 'where', 'who', 'which', 'whether']);

function matchCase(original: string, replacement: string): string {
  const first = original[0] ?? '';
  return first !== first.toLocaleLowerCase() ? replacement[0]!.toLocaleUpperCase() + replacement.slice(1) : replacement;
}

/**
 * Fills `{name}` slots, contracting a preposition before a slot with the slot value's leading article,
 * and, in English, dropping a question word the value repeats: a topic typed as a question ("Why cats
 * purr") in "know why {topic} matters" reads "know why cats purr matters", not "know why Why cats purr".
 */
export function fillSlots(template: string, slots: Readonly<Record<string, string>>, language: VideoLanguage): string {
  const table = CONTRACTIONS[language];
  return template.replace(/(?:(\p{L}+) )?\{(\w+)\}/gu, (whole: string, before: string | undefined, name: string, offset: number) => {
    // Where the sentence goes on after the slot ("{topic} matters"), the slot's noun-phrase form
    // (`${name}Phrase`) stands in for a topic typed as a question or a sentence.
    const continued = /^ \p{L}/u.test(template.slice(offset + whole.length));
    const value = (continued ? slots[`${name}Phrase`] : undefined) ?? slots[name];
    if (value === undefined) return whole;
    return fillOne(before, value, language, table);
  });
}

function fillOne(
  before: string | undefined,
  value: string,
  language: VideoLanguage,
  table: Readonly<Record<string, string>> | undefined,
): string {
  if (before === undefined) return value;
  const firstWord = /^\p{L}+(?=\s)/u.exec(value)?.[0]?.toLowerCase();
  if (language === 'en' && firstWord !== undefined && ENGLISH_QUESTION_WORDS.has(firstWord) && firstWord === before.toLowerCase()) {
    return before + value.slice(firstWord.length);
  }
  const article = /^(\p{L}+) (?=\S)/u.exec(value)?.[1];
  const merged = article === undefined || !table ? undefined : table[`${before.toLocaleLowerCase()} ${article.toLocaleLowerCase()}`];
  // A capitalised article ("Le Monde") is part of a name, so it is not merged.
  if (merged === undefined || article !== article!.toLocaleLowerCase()) return `${before} ${value}`;
  return `${matchCase(before, merged)} ${value.slice(article!.length + 1)}`;
}

/** English words that open a topic typed as a question or a plain phrase, never part of a name. */
const ENGLISH_LEADING_FUNCTION_WORDS = new Set([...ENGLISH_QUESTION_WORDS, 'the', 'a', 'an']);

/**
 * A topic as it reads inside an English sentence: "Why cats purr" becomes "why cats purr", so "let us
 * break down why cats purr" has no stray capital. Names keep their capitals ("Paris in winter"), and a
 * sentence that opens with the topic is capitalised again by the writer.
 */
export function topicInSentence(topic: string, language: VideoLanguage): string {
  if (language !== 'en') return topic;
  const firstWord = /^\p{L}+/u.exec(topic)?.[0];
  if (!firstWord || !ENGLISH_LEADING_FUNCTION_WORDS.has(firstWord.toLowerCase())) return topic;
  // Typed in capitals ("WHY CATS PURR", "THE BEATLES"): kept as the creator wrote it.
  if (firstWord.length > 1 && firstWord === firstWord.toUpperCase()) return topic;
  return topic[0]!.toLowerCase() + topic.slice(1);
}

const ENGLISH_FINITE_VERBS = new Set([
  'is',
  'are',
  'was',
  'were',
  'has',
  'have',
  'had',
  'will',
  'would',
  'can',
  'could',
  'should',
  'must',
  'did',
  'does',
  'do',
  'became',
  'changed',
  'made',
  'saved',
  'ended',
  'began',
  'started',
  'killed',
  'built',
  'discovered',
  'invented',
  'won',
  'lost',
]);
const ENGLISH_RELATIVE_WORDS = new Set(['that', 'which', 'who', 'whom', 'whose', 'where', 'when']);

/** A question that opens with a wh-word reads inside a sentence ("to understand why …"); a yes/no question does not. */
export type TopicForm = 'phrase' | 'question' | 'yes-no question' | 'sentence';

/**
 * What kind of words an English topic is: a noun phrase ("volcanoes", "the day the music died"), a
 * question ("Why octopuses have three hearts", "How to save money", "Is coffee bad for you?") or a
 * sentence ("The first moon landing was almost a disaster."). A verb after a relative word
 * ("things that are older than trees") still makes a phrase.
 */
export function englishTopicForm(topic: string): TopicForm {
  const words = topic.toLowerCase().match(/[\p{L}'’]+/gu) ?? [];
  const first = words[0] ?? '';
  if (ENGLISH_QUESTION_WORDS.has(first)) return 'question';
  if (/\?\s*$/.test(topic)) return 'yes-no question';
  if (/[.!]\s*$/.test(topic)) return 'sentence';
  for (let index = 1; index < words.length; index++) {
    if (ENGLISH_RELATIVE_WORDS.has(words[index]!)) return 'phrase';
    if (ENGLISH_FINITE_VERBS.has(words[index]!)) return 'sentence';
  }
  return 'phrase';
}

/**
 * An English topic as a noun phrase a sentence can go on from ("… matters", "… is proof"): a
 * question becomes "the question of why octopuses have three hearts" (a yes/no question is quoted:
 * 'the question "Is coffee bad for you?"'), a sentence "the story that the first moon landing was
 * almost a disaster". Null for a phrase, which is its own noun phrase.
 */
export function englishTopicPhrase(topic: string): string | null {
  const form = englishTopicForm(topic);
  if (form === 'phrase') return null;
  if (form === 'yes-no question') return `the question "${topic.trim()}"`;
  const inSentence = topicInSentence(topic.replace(/\s*[.!?]+\s*$/u, ''), 'en');
  return form === 'question' ? `the question of ${inSentence}` : `the story that ${inSentence}`;
}

/** Words that open a question in each language other than English (lower case). */
const QUESTION_OPENERS: Partial<Record<VideoLanguage, RegExp>> = {
  de: /^(warum|wieso|weshalb|wie|was|wer|wo|wann|welche[rsmn]?|ist|sind|kann|gibt)\b/u,
  es: /^(¿|por qué|porqué|cómo|qué|quién|quiénes|dónde|cuándo|cuál|cuáles|cuánto)/u,
  fr: /^(pourquoi|comment|que\b|qu'|qui\b|où|quand|quel|quelle|quels|quelles|est-ce)/u,
  pt: /^(por que|porque|como|o que|que\b|quem|onde|quando|qual|quais)/u,
};
/** Words that make a Hindi topic a question wherever they stand (Hindi puts them mid-sentence). */
const HINDI_QUESTION_WORDS = /(क्यों|कैसे|कौन|कहाँ|कहां|कब)/u;
const JAPANESE_QUESTION = /(か|のか|なぜ|どうして|どうやって|何故)/u;

const QUOTES: Record<Exclude<VideoLanguage, 'en'>, readonly [string, string]> = {
  de: ['„', '“'],
  es: ['«', '»'],
  fr: ['« ', ' »'],
  pt: ['“', '”'],
  hi: ['“', '”'],
  ja: ['「', '」'],
};

/**
 * A topic typed as a question or a sentence, quoted the way the language quotes, so that it reads as
 * one noun inside any template ("Um „Warum haben Kraken drei Herzen?“ zu verstehen", "「富士山は
 * どうやってできたのか」を理解するには"). A full stop goes (the template ends the sentence); a
 * question or exclamation mark stays inside the quotes. Null for a phrase, and for English, which
 * rephrases instead (englishTopicPhrase).
 */
export function quotedTopic(topic: string, language: VideoLanguage): string | null {
  if (language === 'en') return null;
  const trimmed = topic.trim();
  const lower = trimmed.toLocaleLowerCase(language);
  const endsAsSentence = /[.!?。！？।]$/u.test(trimmed);
  const question =
    language === 'hi'
      ? HINDI_QUESTION_WORDS.test(trimmed)
      : language === 'ja'
        ? JAPANESE_QUESTION.test(trimmed)
        : (QUESTION_OPENERS[language]?.test(lower) ?? false);
  if (!endsAsSentence && !question) return null;
  const [open, close] = QUOTES[language];
  return `${open}${trimmed.replace(/\s*[.。।]+$/u, '')}${close}`;
}
