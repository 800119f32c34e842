import { words } from './source-text.js';

/**
 * A sentence said by its head when a short video has no room for the whole of it: "The early walls
 * were made of rammed earth: layers of soil pressed hard between wooden boards." → "The early walls
 * were made of rammed earth." Only an elaboration is cut off, never what the head needs to be true:
 * the explanation after a colon, a semicolon or a dash; a non-restrictive relative clause (", which…",
 * ", que…", ", qui…", ", die…"); an appositive noun phrase (", the pigment that…"); an aside
 * (", often…", ", such as…"). A coordinated clause (", and its foundations are only three metres
 * deep") is a fact of its own and stays. The head is a prefix of the article's sentence, so every
 * word said stays the article's.
 */

/** Words that open a tail after a comma which can be dropped without changing what the head says. */
const COMMA_TAILS: Record<string, readonly string[]> = {
  en: ['which', 'where', 'who', 'whose', 'often', 'usually', 'mostly', 'such as', 'including', 'the', 'a', 'an'],
  es: ['que', 'donde', 'quien', 'quienes', 'lo que', 'el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas'],
  fr: ['qui', 'où', 'dont', 'ce qui', 'notamment', 'le', 'la', 'les', 'un', 'une', 'des'],
  de: ['die', 'der', 'das', 'den', 'dem', 'deren', 'dessen', 'wo', 'ein', 'eine', 'einem', 'einer'],
  pt: ['que', 'onde', 'o que', 'o', 'a', 'os', 'as', 'um', 'uma', 'uns', 'umas'],
  it: ['che', 'dove', 'il quale', 'la quale', 'il', 'lo', 'la', 'i', 'gli', 'le', 'un', 'una'],
};

/**
 * The tails above that open with an article: an appositive ("…, the pigment that…"), or just as
 * well a list's next item, which the cut must not drop.
 */
const ARTICLES: Record<string, readonly string[]> = {
  en: ['the', 'a', 'an'],
  es: ['el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas'],
  fr: ['le', 'la', 'les', 'un', 'une', 'des'],
  de: ['die', 'der', 'das', 'den', 'dem', 'ein', 'eine', 'einem', 'einer'],
  pt: ['o', 'a', 'os', 'as', 'um', 'uma', 'uns', 'umas'],
  it: ['il', 'lo', 'la', 'i', 'gli', 'le', 'un', 'una'],
};

/** Words that join a list's last item or a coordinated clause. */
const CONJUNCTIONS: Record<string, readonly string[]> = {
  en: ['and', 'or', 'but', 'nor', 'so'],
  es: ['y', 'e', 'o', 'u', 'pero', 'mas', 'sino'],
  fr: ['et', 'ou', 'mais', 'ni', 'donc'],
  de: ['und', 'oder', 'aber', 'sondern', 'doch'],
  pt: ['e', 'ou', 'mas', 'nem', 'porém'],
  it: ['e', 'ed', 'o', 'od', 'ma', 'né'],
};

/** The conjunctions above that open a contrast or a consequence ("but", "nor", "so"): they qualify what came before. */
const CONTRASTS: Record<string, readonly string[]> = {
  en: ['but', 'nor', 'so'],
  es: ['pero', 'mas', 'sino'],
  fr: ['mais', 'ni', 'donc'],
  de: ['aber', 'sondern', 'doch'],
  pt: ['mas', 'nem', 'porém'],
  it: ['ma', 'né'],
};

/**
 * A sentence that opens with a subordinate clause ("When it rains, the streets…", "From the time an
 * echo takes to return, the bat…") is never cut: its first comma closes the clause, and a cut there
 * would say the clause alone. Entries of several words are complex subordinators.
 */
const SUBORDINATORS: Record<string, readonly string[]> = {
  en: [
    'when',
    'if',
    'because',
    'although',
    'though',
    'while',
    'as',
    'since',
    'after',
    'before',
    'once',
    'unless',
    'whether',
    'until',
    'by the time',
    'from the time',
    'at the time',
    'every time',
    'each time',
    'the moment',
  ],
  es: [
    'cuando',
    'si',
    'aunque',
    'porque',
    'como',
    'mientras',
    'al',
    'tras',
    'después',
    'antes',
    'según',
    'desde que',
    'hasta que',
    'cada vez que',
    'una vez que',
    'a medida que',
  ],
  fr: [
    'quand',
    'lorsque',
    'si',
    'comme',
    'parce',
    'bien',
    'alors',
    'après',
    'avant',
    'puisque',
    'tandis',
    'dès',
    'selon',
    'depuis que',
    'au moment où',
    'chaque fois que',
    'à mesure que',
  ],
  de: ['wenn', 'als', 'weil', 'obwohl', 'da', 'nachdem', 'während', 'bevor', 'sobald', 'falls', 'ob', 'seit', 'seitdem', 'je nachdem'],
  pt: [
    'quando',
    'se',
    'embora',
    'porque',
    'como',
    'enquanto',
    'ao',
    'depois',
    'antes',
    'segundo',
    'desde que',
    'até que',
    'cada vez que',
    'uma vez que',
    'à medida que',
  ],
  it: ['quando', 'se', 'sebbene', 'perché', 'come', 'mentre', 'dopo', 'prima', 'dal momento che', 'ogni volta che', 'finché'],
};

/**
 * A sentence that opens with a preposition may open with an adverbial ("During the long winter
 * months, the bears…"), whose comma is no place to cut: its head must be longer than such a
 * phrase usually is ("En el centro se forma el ojo" is a clause; "During the winter months" is not).
 * An entry of two words is a preposition only with its second word (Portuguese "a partir").
 */
const PREPOSITIONS: Record<string, readonly string[]> = {
  en: [
    'during',
    'in',
    'on',
    'at',
    'for',
    'by',
    'from',
    'with',
    'throughout',
    'under',
    'over',
    'within',
    'without',
    'despite',
    'among',
    'between',
    'across',
    'around',
    'through',
    'to',
    'of',
  ],
  es: ['en', 'durante', 'con', 'para', 'por', 'desde', 'hasta', 'entre', 'sin', 'sobre', 'bajo', 'a', 'de', 'del'],
  fr: ['en', 'dans', 'pendant', 'avec', 'pour', 'par', 'depuis', 'sur', 'sous', 'entre', 'sans', 'à', 'au', 'aux', 'de', 'du'],
  de: [
    'in',
    'im',
    'an',
    'am',
    'auf',
    'mit',
    'nach',
    'von',
    'vom',
    'bei',
    'beim',
    'für',
    'über',
    'unter',
    'zwischen',
    'zu',
    'zum',
    'zur',
    'durch',
    'aus',
    'trotz',
    'vor',
  ],
  pt: [
    'em',
    'no',
    'na',
    'nos',
    'nas',
    'durante',
    'com',
    'para',
    'por',
    'pelo',
    'pela',
    'desde',
    'até',
    'entre',
    'sem',
    'sobre',
    'após',
    // Portuguese "a" opens most sentences as the article ("A cor verde vem da clorofila"): only
    // "a partir (de)" is the preposition.
    'a partir',
    'de',
    'do',
    'da',
  ],
  it: ['in', 'nel', 'nella', 'durante', 'con', 'per', 'da', 'dal', 'dalla', 'tra', 'fra', 'senza', 'su', 'sul', 'a', 'al', 'di', 'del'],
};
const MIN_HEAD_WORDS_AFTER_PREPOSITION = 7;

/** The fewest words a head keeps: fewer is a fragment, not a statement. */
const MIN_HEAD_WORDS = 5;

const base = (language: string) => language.toLowerCase().slice(0, 2);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/**
 * The sentence's shortest head that still states something whole, or undefined when it has none.
 * `keeps(tail)` vetoes a cut whose tail the telling needs (the topic's own words: "…: blue light is
 * scattered…" for "Why the sky is blue").
 */
export function sentenceCore(sentence: string, language: string, keeps: (tail: string) => boolean = () => false): string | undefined {
  const lang = base(language);
  const tails = COMMA_TAILS[lang];
  if (!tails) return undefined;
  const text = sentence.trim();
  const lower = text.toLocaleLowerCase(lang);
  const sentenceWords = words(lower, lang);
  const [firstWord = '', secondWord = ''] = sentenceWords;
  const articles = ARTICLES[lang] ?? [];
  const opensWith = (phrase: string, at: number) => phrase.split(' ').every((word, index) => sentenceWords[at + index] === word);
  // "Shortly before midnight on 14 April, a lookout…" opens with a subordinate clause too.
  const subordinate = (SUBORDINATORS[lang] ?? []).some(
    (phrase) => opensWith(phrase, 0) || (!articles.includes(firstWord) && opensWith(phrase, 1)),
  );
  if (subordinate) return undefined;
  const prepositions = PREPOSITIONS[lang] ?? [];
  const opensWithPreposition = prepositions.includes(firstWord) || prepositions.includes(`${firstWord} ${secondWord}`);
  const minWords = opensWithPreposition ? MIN_HEAD_WORDS_AFTER_PREPOSITION : MIN_HEAD_WORDS;
  const commaTail = new RegExp(`,\\s+(?:${tails.map(escape).join('|')})(?=[\\s,])`, 'gu');
  const conjunctions = (CONJUNCTIONS[lang] ?? []).map(escape).join('|');
  const listGoesOn = new RegExp(`\\s(?:${conjunctions})\\s+(?:${articles.map(escape).join('|')})\\s`, 'u');
  // "…one queen, thousands of workers and, in summer, a few hundred drones": the cut would close
  // an aside set inside a coordination, and the head would end on it.
  const asideInCoordination = new RegExp(`(?:^|\\s)(?:${conjunctions}),\\s[^,]*$`, 'u');
  const cuts = [...lower.matchAll(/\s*[:;]\s+|\s+[—–]\s+/gu), ...lower.matchAll(commaTail)]
    .map((match) => match.index)
    .sort((a, b) => a - b);
  for (const at of cuts) {
    const head = text.slice(0, at).replace(/[\s,;:—–]+$/u, '');
    if (words(head, lang).length < minWords) continue;
    // A cut inside brackets, quotes or dashes would leave them open.
    if (unbalanced(head)) continue;
    if (asideInCoordination.test(head.toLocaleLowerCase(lang))) continue;
    const tail = text.slice(at);
    if (keeps(tail)) continue;
    const lowerTail = tail.toLocaleLowerCase(lang);
    if (dropsMoreThanAnAside(lowerTail, lang, tails)) continue;
    if (/^\s*,/u.test(tail) && articles.includes(words(lowerTail, lang)[0] ?? '')) {
      // A list's next item, not an appositive: "…like Suez, but the mountains, the heavy rains and
      // the floods of the river made…" would leave a subject alone, "…uses the milk, the meat and
      // the wool" would say the milk only.
      if (listGoesOn.test(lowerTail)) continue;
    }
    if (lang === 'de' && !germanRelativeClause(tail)) continue;
    return `${head}.`;
  }
  return undefined;
}

/**
 * Whether cutting at this tail would drop more than an aside. A dash answered by a second dash sets
 * the aside inside its sentence, the main clause going on after it. After the comma that closes a
 * comma tail, only another aside, a preposition or an additive conjunction may follow: a
 * preposition goes on with the predicate the head already has ("A bat produces short, high-pitched
 * calls, usually too high for people to hear, through its mouth or nose"), and "and" adds a fact
 * the head does without (", often hundreds of thousands at a time, and many of them died").
 * Anything else is the main clause resuming ("The Great Wall of China, a series of fortifications,
 * was built…": the head would be its subject alone) or a contrast or consequence that qualifies the
 * head (", usually with Sherpa guides, but the thin air … has killed hundreds").
 */
function dropsMoreThanAnAside(tail: string, lang: string, tails: readonly string[]): boolean {
  const opening = /^\s*[—–]\s+/u.exec(tail);
  if (opening) return /\s[—–]\s/u.test(tail.slice(opening[0].length));
  if (!/^\s*,/u.test(tail)) return false;
  const closing = tail.indexOf(',', tail.indexOf(',') + 1);
  if (closing === -1) return false;
  const next = words(tail.slice(closing + 1), lang);
  const [first = '', second = ''] = next;
  const contrasts = CONTRASTS[lang] ?? [];
  const additions = (CONJUNCTIONS[lang] ?? []).filter((conjunction) => !contrasts.includes(conjunction));
  const goesOn = [...tails, ...additions, ...(PREPOSITIONS[lang] ?? [])];
  return next.length > 0 && !goesOn.includes(first) && !goesOn.includes(`${first} ${second}`);
}

/**
 * German writes a comma before every relative clause, restrictive or not, and "der", "die", "das"
 * are articles as well as relative pronouns: ", das dritte Herz versorgt den übrigen Körper" is a
 * main clause of its own. A relative clause puts its verb last, and German capitalises its nouns:
 * a d-word tail is taken for a relative clause only when its last word is in lower case (", die im
 * Körper der Vögel Hormone verändern"); one that ends on a noun (", die größer ist als ihr
 * Schnabel", restrictive besides) is kept.
 */
function germanRelativeClause(tail: string): boolean {
  const clause = tail.replace(/^\s*,\s*/u, '').split(/[,;:.!?]/u)[0] ?? '';
  const opener = words(clause.toLocaleLowerCase('de'), 'de')[0] ?? '';
  if (!['die', 'der', 'das', 'den', 'dem', 'deren', 'dessen', 'wo'].includes(opener)) return true;
  const last = words(clause, 'de').at(-1) ?? '';
  return last !== '' && last === last.toLocaleLowerCase('de');
}

/**
 * A clause cut before a relative pronoun, without the preposition (and article) that the pronoun
 * took: "…en la corteza terrestre por la | que salen…" → "…en la corteza terrestre", "…a tower from |
 * which…" → "…a tower".
 */
export function withoutStrandedPreposition(text: string, language: string): string {
  const lang = base(language);
  const prepositions = (PREPOSITIONS[lang] ?? []).filter((preposition) => !preposition.includes(' '));
  if (prepositions.length === 0) return text;
  const articles = ARTICLES[lang] ?? [];
  const stranded = new RegExp(`\\s+(?:${prepositions.map(escape).join('|')})(?:\\s+(?:${articles.map(escape).join('|')}))?$`, 'iu');
  return text.replace(stranded, '');
}

function unbalanced(text: string): boolean {
  const count = (pattern: RegExp) => (text.match(pattern) ?? []).length;
  // Quotes pair up in every language's style («…», “…”, „…“, "…"): an odd number leaves one open.
  // So do dashes set around an aside ("The lighthouse — a stone tower — became…").
  return count(/\(/gu) !== count(/\)/gu) || count(/[«»“”„"]/gu) % 2 === 1 || count(/\s[—–]\s/gu) % 2 === 1;
}
