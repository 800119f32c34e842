import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { artworkNames, readCachedText, writeCachedText } from './offline-image-artwork.js';

const require = createRequire(import.meta.url);
// Both are CommonJS; required directly so they load the same from ESM, CommonJS and test runners.
const snowball = require('snowball-stemmers') as { newStemmer(algorithm: string): { stem(word: string): string } };
const packageVersion = (name: string): string =>
  (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
const { deu, eng, fra, hin, jpn, por, spa } = require('stopword') as Record<
  'deu' | 'eng' | 'fra' | 'hin' | 'jpn' | 'por' | 'spa',
  string[]
>;
/**
 * The offline painter's vocabulary: every emoji of Microsoft's Fluent Emoji set that shows a thing
 * (animals, plants, food, objects, vehicles, buildings, weather, people and activities), found
 * through the Unicode CLDR names and keywords of the seven narration languages (emojibase-data).
 *
 * Latin-script text is matched word by word after Snowball stemming, so plurals and inflections
 * find their subject ("honeybees", "Bienen", "bicicletas"), and a compound finds its head or its
 * first part ("Fahrradhelm", "Honigbienen"). Japanese and Devanagari are matched as text, since
 * Japanese has no spaces and Hindi words carry marks; a name inside a longer matched name does
 * not count (自転車 is a bicycle, not the car 車).
 *
 * Each locale's annotations (about 0.7 MB of JSON) are read only when a text in its script asks.
 */

export interface Subject {
  /** Fluent Emoji's name of the artwork (e.g. "bicycle"). */
  id: string;
  /** The CLDR English name: what the storyboard says the picture shows. */
  name: string;
  hexcode: string;
  group: number;
  /** English keywords, used to find related subjects and the setting. */
  tags: readonly string[];
  /** Unicode's emoji order: the commonest of similar subjects comes first. */
  order: number;
  /** Unicode's emoji subgroup (bugs, ground transport, fruit…): subjects of one kind. */
  subgroup: number;
}

export interface SubjectMatch {
  subject: Subject;
  score: number;
  /** Named by its CLDR name (or typed as an emoji), not only by one of its keywords. */
  named: boolean;
  /** The words that found it, for tests and the benchmark's report. */
  via: string;
  /** Where in the text the subject is first named (0-1), for "the first one named is the subject". */
  at: number;
}

type Locale = 'en' | 'de' | 'es' | 'fr' | 'pt' | 'hi' | 'ja';
const LATIN_LOCALES: readonly Locale[] = ['en', 'de', 'es', 'fr', 'pt'];
const STEMMER_NAMES: Record<string, string> = { en: 'english', de: 'german', es: 'spanish', fr: 'french', pt: 'portuguese' };
/**
 * Function words ("how", "what", "wie") are keywords of some emoji but never what a text is about;
 * neither are the words topics are framed with ("the history of", "the secret life of").
 */
const FRAMING: Record<string, readonly string[]> = {
  en: [
    'us',
    'thing',
    'things',
    'good',
    'help',
    'keep',
    'ahead',
    'again',
    'mind',
    'look',
    'know',
    'one',
    'two',
    'three',
    'first',
    'time',
    'way',
    'part',
    'story',
    'history',
    'idea',
    'ideas',
    'fact',
    'facts',
    'question',
    'answer',
    'why',
    'secret',
    'life',
    'science',
    'mystery',
    'world',
  ],
  de: ['geschichte', 'leben', 'geheimnis', 'wissenschaft', 'welt', 'erste', 'ersten'],
  es: ['historia', 'vida', 'secreto', 'secreta', 'ciencia', 'misterio', 'mundo', 'primeros', 'primeras', 'sobre', 'bajo', 'vez', 'tema'],
  fr: ['histoire', 'vie', 'secret', 'secrète', 'science', 'mystère', 'monde', 'premiers', 'premières', 'fois', 'sujet'],
  pt: ['história', 'vida', 'segredo', 'secreta', 'ciência', 'mistério', 'mundo', 'primeiros', 'primeiras', 'sobre', 'vez', 'tema'],
  // आगे (ahead) and पहले (before) begin like आग (fire) and पहला (first); बात (a matter) and विचार (a thought) are no things.
  hi: ['इतिहास', 'कहानी', 'रहस्य', 'विज्ञान', 'जीवन', 'दुनिया', 'आगे', 'पहले', 'बात', 'बातों', 'बातें', 'विचार', 'विचारों'],
  // 目 and 耳 are eyes and ears, but far more often an ordinal (一つ目, the first) or an idiom (目にする, 耳にする: to see, to hear of).
  ja: ['歴史', '物語', '秘密', '科学', '生活', '世界', '不思議', '目', '耳'],
};
const STOP_WORDS: Record<string, readonly string[]> = {
  en: [...eng, ...FRAMING.en!],
  de: [...deu, ...FRAMING.de!],
  es: [...spa, ...FRAMING.es!],
  fr: [...fra, ...FRAMING.fr!],
  pt: [...por, ...FRAMING.pt!],
  hi: [...hin, ...FRAMING.hi!],
  ja: [...jpn, ...FRAMING.ja!],
};
const LATIN_STOP_WORDS = new Set(LATIN_LOCALES.flatMap((locale) => STOP_WORDS[locale]!));
const LATIN_FRAMING = new Set(LATIN_LOCALES.flatMap((locale) => FRAMING[locale]!));

interface CompactEmoji {
  group?: number;
  order?: number;
  subgroup?: number;
  hexcode: string;
  label: string;
  tags?: string[];
  unicode: string;
}

/**
 * Groups that are things a picture can show. Left out: faces (0), skin-tone and hair components
 * (2), symbols such as arrows, keycaps and signs (8) and flags (9, not in the artwork set).
 */
const PICTURABLE_GROUPS = new Set([1, 3, 4, 5, 6, 7]);
/** Hand signs and gestures (thumbs down, OK hand, …): their keywords are everyday words ("no", "ok"), never a picture's subject. */
const GESTURE_SUBGROUPS = new Set([16, 17, 18, 19, 20, 24, 31]);
/** The clock faces ("three o’clock", "ten-thirty"): their keywords are numbers, which name no picture. */
const CLOCK_FACES = /o’clock$|-thirty$/u;
/** People emoji come in person/man/woman variants; the neutral one stands for all three. */
const GENDERED = /^(man|woman|men|women)\b/;

const readJson = <T>(specifier: string): T => JSON.parse(readFileSync(require.resolve(specifier), 'utf8')) as T;

const slug = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’'.]/g, '')
    .replace(/&/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The artwork drawn for an emoji: its English name as Fluent Emoji spells it. */
function artworkFor(label: string, names: Set<string>): string | null {
  const base = slug(label);
  for (const name of [base, `person-${base}`, base.replace('blond-', 'blonde-')]) if (names.has(name)) return name;
  return null;
}

let englishSubjects: { list: Subject[]; byHexcode: Map<string, Subject>; byEmoji: Map<string, Subject> } | null = null;

function subjects(): NonNullable<typeof englishSubjects> {
  if (englishSubjects) return englishSubjects;
  const names = artworkNames();
  const list: Subject[] = [];
  const byHexcode = new Map<string, Subject>();
  const byEmoji = new Map<string, Subject>();
  // The full English data (not the compact one) has the subgroups.
  for (const emoji of readJson<Array<CompactEmoji & { emoji: string }>>('emojibase-data/en/data.json')) {
    if (
      emoji.group === undefined ||
      !PICTURABLE_GROUPS.has(emoji.group) ||
      GESTURE_SUBGROUPS.has(emoji.subgroup ?? -1) ||
      GENDERED.test(emoji.label) ||
      CLOCK_FACES.test(emoji.label)
    )
      continue;
    const id = artworkFor(emoji.label, names);
    if (!id) continue;
    const subject: Subject = {
      id,
      name: emoji.label,
      hexcode: emoji.hexcode,
      group: emoji.group,
      tags: emoji.tags ?? [],
      order: emoji.order ?? list.length,
      subgroup: emoji.subgroup ?? -1,
    };
    list.push(subject);
    byHexcode.set(emoji.hexcode, subject);
    byEmoji.set(stripVariation(emoji.emoji), subject);
  }
  englishSubjects = { list, byHexcode, byEmoji };
  return englishSubjects;
}

const stripVariation = (text: string): string => text.replace(/[\uFE0E\uFE0F]/g, '');

/** Every subject the library can draw. */
export function allSubjects(): readonly Subject[] {
  return subjects().list;
}

export function subjectById(id: string): Subject | undefined {
  return subjects().list.find((subject) => subject.id === id);
}

/** The subject with this English name ("bicycle"). */
export function subjectByName(name: string): Subject | undefined {
  return subjects().list.find((subject) => subject.name === name);
}

interface Term {
  subject: Subject;
  /** A name (the CLDR label) weighs more than a keyword. */
  label: boolean;
  /** How many subjects share this term: a keyword of many ("animal") says little. */
  weight: number;
  /** How this subject's one-word names behind a Latin stem are written ("cama" for the bed, "cámara" for the camera). */
  spellings?: ReadonlySet<string>;
}

interface LatinIndex {
  kind: 'latin';
  stem: (word: string) => string;
  /** Stemmed phrase ("honeybe", "hot air balloon") to its terms. */
  phrases: Map<string, Term[]>;
  longestPhrase: number;
  stopWords: ReadonlySet<string>;
  locale: Locale;
  /** German writes compounds as one word ("Fahrradhelm"); in the other languages a part of a word is a false friend ("chantent" is not a tent). */
  compounds: boolean;
}

interface TextIndex {
  kind: 'text';
  /** Whole words that are never a name, though a name begins them (Hindi आगे, ahead, holds आग, fire). */
  stopWords: ReadonlySet<string>;
  /** `inflected`: a Hindi name without its last vowel, matched only with an ending after it. */
  terms: Array<{ text: string; term: Term; inflected?: boolean }>;
  /** Hindi separates words with spaces: a name starts a word (its end may carry an inflection). */
  wordStarts: boolean;
}

const indexes = new Map<Locale, LatinIndex | TextIndex>();

const wordsOf = (text: string): string[] =>
  text
    .toLocaleLowerCase()
    .normalize('NFC')
    .match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];

function termsOf(locale: Locale): Array<{ text: string; subject: Subject; label: boolean }> {
  const { byHexcode } = subjects();
  const out: Array<{ text: string; subject: Subject; label: boolean }> = [];
  for (const emoji of readJson<CompactEmoji[]>(`emojibase-data/${locale}/compact.json`)) {
    const subject = byHexcode.get(emoji.hexcode);
    if (!subject) continue;
    const seen = new Set<string>();
    const add = (raw: string, label: boolean) => {
      const text = raw.trim().toLocaleLowerCase();
      if (!text || seen.has(text)) return;
      seen.add(text);
      out.push({ text, subject, label });
    };
    // "बाइक, साइकिल" and "flag: Japan" hold several names in one label.
    for (const part of emoji.label.split(/[,:;、，]\s*/)) add(part, true);
    for (const tag of emoji.tags ?? []) add(tag, false);
  }
  return out;
}

/** 1 for a term only one subject has, falling off as more subjects share it. */
const rarity = (sharedBy: number): number => 1 / (1 + Math.log2(sharedBy));

function buildIndex(locale: Locale): LatinIndex | TextIndex {
  const raw = termsOf(locale);
  if (LATIN_LOCALES.includes(locale)) {
    const stemmer = snowball.newStemmer(STEMMER_NAMES[locale]!);
    // Stemming every name and keyword of a language takes a tenth of a second or more: the stems
    // are kept on disk for the next process, per version of the annotations and of the stemmer.
    const cacheName = `stems-${locale}-${packageVersion('emojibase-data')}-${packageVersion('snowball-stemmers')}.json`;
    const cache = new Map<string, string>(Object.entries(JSON.parse(readCachedText(cacheName) ?? '{}') as Record<string, string>));
    const known = cache.size;
    const stem = (word: string): string => {
      let stemmed = cache.get(word);
      if (stemmed === undefined) cache.set(word, (stemmed = stemmer.stem(word)));
      return stemmed;
    };
    const grouped = new Map<string, Array<{ subject: Subject; label: boolean; spellings: Set<string> }>>();
    let longestPhrase = 1;
    for (const { text, subject, label } of raw) {
      const words = wordsOf(text);
      if (words.length === 0) continue;
      longestPhrase = Math.max(longestPhrase, words.length);
      const key = words.map(stem).join(' ');
      const list = grouped.get(key) ?? [];
      let entry = list.find((other) => other.subject === subject);
      if (!entry) list.push((entry = { subject, label, spellings: new Set() }));
      else if (label) entry.label = true;
      if (words.length === 1) entry.spellings.add(words[0]!);
      grouped.set(key, list);
    }
    if (cache.size > known) writeCachedText(cacheName, JSON.stringify(Object.fromEntries(cache)));
    const phrases = new Map<string, Term[]>();
    for (const [key, list] of grouped) {
      const labels = list.filter((entry) => entry.label).length;
      phrases.set(
        key,
        list.map((entry) => ({ ...entry, weight: rarity(entry.label ? labels : list.length) })),
      );
    }
    // Every Latin language's function words: English "and" or "still" is no Spanish or German name either.
    return { kind: 'latin', locale, stem, phrases, longestPhrase, stopWords: LATIN_STOP_WORDS, compounds: locale === 'de' };
  }
  const counts = new Map<string, number>();
  const labelCounts = new Map<string, number>();
  for (const { text, label } of raw) {
    counts.set(text, (counts.get(text) ?? 0) + 1);
    if (label) labelCounts.set(text, (labelCounts.get(text) ?? 0) + 1);
  }
  const stopWords = new Set(STOP_WORDS[locale]);
  const terms = raw
    // Short keywords are everyday words (ना "no", です); a kanji is a word on its own, a kana or
    // Devanagari letter is not; short hiragana names hide inside running text (たこ in 言ったことがある).
    .filter(
      ({ text, label }) =>
        [...text].length >= (/\p{Script=Han}/u.test(text) ? 1 : /^\p{Script=Hiragana}+$/u.test(text) ? 4 : label ? 2 : 3),
    )
    .filter(({ text }) => !stopWords.has(text))
    .flatMap(({ text, subject, label }) => {
      const term = { subject, label, weight: rarity((label ? labelCounts : counts).get(text) ?? 1) };
      // Hindi inflects a noun's last vowel: मधुमक्खी, मधुमक्खियाँ; बिल्ली, बिल्लियाँ; केला, केले.
      const stem = locale === 'hi' ? text.replace(/[\u093E-\u094C]$/u, '') : text;
      return stem !== text && [...stem].length >= 3
        ? [
            { text, term },
            { text: stem, term, inflected: true },
          ]
        : [{ text, term }];
    });
  return { kind: 'text', terms, wordStarts: locale === 'hi', stopWords };
}

function indexFor(locale: Locale): LatinIndex | TextIndex {
  let index = indexes.get(locale);
  if (!index) indexes.set(locale, (index = buildIndex(locale)));
  return index;
}

/**
 * The locales whose names a text can contain, by the scripts it is written in: for Latin script,
 * English (prompts are written in English) and the narration's language when it is known, else all
 * five, since a word of one can be a false friend in another ("still" is German for breast-feeding).
 * Narration is read in its own language only (Portuguese "antes" is not English "ants").
 */
function localesFor(text: string, language?: string, englishToo = true): Locale[] {
  const locales: Locale[] = [];
  const base = language?.toLowerCase().split('-')[0];
  if (/\p{Script=Latin}/u.test(text)) {
    if (base && (LATIN_LOCALES as readonly string[]).includes(base))
      locales.push(...new Set<Locale>(englishToo ? ['en', base as Locale] : [base as Locale]));
    else if (base === 'hi' || base === 'ja') locales.push('en');
    else locales.push(...LATIN_LOCALES);
  }
  if (/\p{Script=Devanagari}/u.test(text)) locales.push('hi');
  if (/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(text)) locales.push('ja');
  return locales;
}

interface Hit {
  term: Term;
  via: string;
  /** Position of the hit as a share of the text. */
  at: number;
  /** Words (Latin) or characters (text) the name spans: a longer name is more specific. */
  length: number;
  /** Matched only as a part of a compound word. */
  partial: boolean;
}

/**
 * Singular forms to try when a word's stem finds nothing: the stemmers keep irregular plurals
 * apart from their singular (hiboux/hibou, aviões/avião, Kängurus/Känguru, Bäume/Baum).
 */
const PLURALS: Record<string, ReadonlyArray<readonly [string, string]>> = {
  en: [
    ['ies', 'y'],
    ['ves', 'f'],
    ['ves', 'fe'],
    ['es', ''],
    ['s', ''],
  ],
  de: [
    ['e', ''],
    ['en', ''],
    ['n', ''],
    ['er', ''],
    ['s', ''],
  ],
  es: [
    ['ces', 'z'],
    ['es', ''],
    ['s', ''],
  ],
  fr: [
    ['aux', 'al'],
    ['eux', 'eu'],
    ['oux', 'ou'],
    ['x', ''],
    ['s', ''],
  ],
  pt: [
    ['ões', 'ão'],
    ['ães', 'ão'],
    ['ãos', 'ão'],
    ['ais', 'al'],
    ['éis', 'el'],
    ['eis', 'el'],
    ['óis', 'ol'],
    ['is', 'l'],
    ['ns', 'm'],
    ['es', ''],
    ['s', ''],
  ],
};
const UMLAUTS: Record<string, string> = { ä: 'a', ö: 'o', ü: 'u' };

function singulars(locale: string, word: string): string[] {
  const forms: string[] = [];
  for (const [plural, singular] of PLURALS[locale] ?? []) {
    if (word.length - plural.length < 3 || !word.endsWith(plural)) continue;
    const form = word.slice(0, word.length - plural.length) + singular;
    forms.push(form);
    // German plurals often add an umlaut (Baum, Bäume).
    if (locale === 'de') forms.push(form.replace(/[äöü](?=[^äöü]*$)/u, (vowel) => UMLAUTS[vowel]!));
  }
  return forms;
}

/** Stems shorter than this are checked against the words they came from. */
const SHORT_STEM = 5;

/** Shortest stem a compound part may be matched by: shorter ones hide inside unrelated words. */
const MIN_PART = 4;

/** The terms among `list` whose subject spells one of `forms` so (not only a word of the same stem). */
const spelledBy = (list: Term[] | undefined, ...forms: string[]): Term[] | undefined =>
  list?.filter((term) => forms.some((form) => term.spellings?.has(form) === true));

function latinHits(index: LatinIndex, words: string[]): Hit[] {
  const stems = words.map(index.stem);
  const hits: Hit[] = [];
  const covered = new Array<boolean>(words.length).fill(false);
  const at = (i: number) => (words.length <= 1 ? 0 : i / (words.length - 1));
  // Longest phrases first, so "hot air balloon" is the balloon, not the air.
  for (let n = Math.min(index.longestPhrase, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      if (covered.slice(i, i + n).some(Boolean)) continue;
      const key = stems.slice(i, i + n).join(' ');
      let terms = index.phrases.get(key);
      // A stem is shared by unrelated words (Portuguese "cada" and "cadeado" both stem to "cad",
      // "guarde", keep, and "guarda", a guard, to "guard"; French "gens", people, meets "génie";
      // Spanish "cámara", a camera or a magma chamber, and "cama", a bed): a one-word name counts
      // only for the subjects that spell the word itself or its singular so, outside German, whose
      // compounds and cases the stem is there for. So an English -ing word names a thing only when
      // the annotations spell it so ("running", "building"): otherwise its stem is a verb's, and
      // "bees watching the dance" would show a wristwatch.
      if (terms && n === 1 && (key.length < SHORT_STEM || !index.compounds)) {
        terms = spelledBy(terms, words[i]!, ...singulars(index.locale, words[i]!));
        if (terms?.length === 0) terms = undefined;
      }
      if (!terms && n === 1) {
        for (const form of singulars(index.locale, words[i]!)) {
          const stem = index.stem(form);
          const candidates = index.phrases.get(stem);
          terms = index.compounds && stem.length >= SHORT_STEM ? candidates : spelledBy(candidates, form);
          if (terms?.length) break;
          terms = undefined;
        }
      }
      // A function word ("avions" is also French for "we had") may still be a name, never a keyword;
      // a framing word ("sobre": about, and an envelope) never counts.
      if (terms && n === 1 && index.stopWords.has(words[i]!))
        terms = LATIN_FRAMING.has(words[i]!) ? [] : terms.filter((term) => term.label);
      if (!terms?.length) continue;
      for (let k = i; k < i + n; k++) covered[k] = true;
      const via = words.slice(i, i + n).join(' ');
      for (const term of terms) hits.push({ term, via, at: at(i), length: n, partial: false });
    }
  }
  // Compounds (German mostly, also "honeybees" against "bee"): the head at the end, else the first part.
  if (!index.compounds) return hits;
  words.forEach((word, i) => {
    if (covered[i] || word.length < MIN_PART + 3) return;
    const stem = stems[i]!;
    for (let cut = 3; cut <= stem.length - MIN_PART; cut++) {
      const terms = index.phrases.get(stem.slice(cut)) ?? index.phrases.get(index.stem(word.slice(cut)));
      if (terms) {
        for (const term of terms) hits.push({ term, via: word, at: at(i), length: 1, partial: true });
        return;
      }
    }
    for (let cut = word.length - 3; cut >= MIN_PART; cut--) {
      const terms = index.phrases.get(index.stem(word.slice(0, cut)));
      if (terms) {
        for (const term of terms) hits.push({ term, via: word, at: at(i), length: 1, partial: true });
        return;
      }
    }
  });
  return hits;
}

function textHits(index: TextIndex, text: string): Hit[] {
  const found: Array<{ start: number; end: number; term: Term }> = [];
  const letter = /[\p{L}\p{M}]/u;
  const han = /\p{Script=Han}/u;
  for (const { text: name, term, inflected } of index.terms) {
    let start = text.indexOf(name);
    while (start >= 0) {
      const startsWord = !index.wordStarts || start === 0 || !letter.test(text[start - 1]!);
      const end = start + name.length;
      // A lone kanji is a word only between kana or punctuation: 家 is a house, 専門家 an expert.
      const loneKanji = name.length === 1 && (han.test(text[start - 1] ?? '') || han.test(text[end] ?? ''));
      const word = index.wordStarts ? /^[\p{L}\p{M}]+/u.exec(text.slice(start))![0] : name;
      if (startsWord && !loneKanji && !index.stopWords.has(word) && (!inflected || (end < text.length && letter.test(text[end]!))))
        found.push({ start, end, term });
      start = text.indexOf(name, start + 1);
    }
  }
  const total = Math.max(1, text.length - 1);
  return found
    .filter(
      (hit) => !found.some((other) => other.end - other.start > hit.end - hit.start && other.start <= hit.start && other.end >= hit.end),
    )
    .map((hit) => ({
      term: hit.term,
      via: text.slice(hit.start, hit.end),
      at: hit.start / total,
      length: [...text.slice(hit.start, hit.end)].length,
      partial: false,
    }));
}

function hitScore(hit: Hit, latin: boolean): number {
  const base = hit.term.label ? 3 : 1.5;
  const specific = latin ? 1 + 0.5 * (hit.length - 1) : 1 + 0.12 * Math.min(hit.length, 8);
  return base * hit.term.weight * specific * (hit.partial ? 0.6 : 1);
}

/** Emoji typed into the text name their subject outright ("🐝 dance"). */
function emojiHits(text: string): Hit[] {
  const { byEmoji } = subjects();
  const hits: Hit[] = [];
  const segments = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)];
  segments.forEach((segment, i) => {
    if (!/\p{Extended_Pictographic}/u.test(segment.segment)) return;
    const subject = byEmoji.get(stripVariation(segment.segment).replace(/\p{Emoji_Modifier}/gu, ''));
    if (subject)
      hits.push({
        term: { subject, label: true, weight: 2 },
        via: segment.segment,
        at: segments.length <= 1 ? 0 : i / (segments.length - 1),
        length: 1,
        partial: false,
      });
  });
  return hits;
}

/**
 * The subjects a text names, best first. A subject's score is its best name's (a CLDR name beats
 * a keyword; a rare keyword beats a common one) plus a little for every further mention.
 */
export function findSubjects(text: string, language?: string, { englishToo = true }: { englishToo?: boolean } = {}): SubjectMatch[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const lower = trimmed.toLocaleLowerCase().normalize('NFC');
  const words = wordsOf(trimmed);
  const hits: Array<{ hit: Hit; score: number }> = emojiHits(trimmed).map((hit) => ({ hit, score: hitScore(hit, false) }));
  for (const locale of localesFor(trimmed, language, englishToo)) {
    const index = indexFor(locale);
    const found = index.kind === 'latin' ? latinHits(index, words) : textHits(index, lower);
    for (const hit of found) hits.push({ hit, score: hitScore(hit, index.kind === 'latin') });
  }
  const bySubject = new Map<Subject, { best: number; rest: number; at: number; named: boolean; via: string }>();
  for (const { hit, score } of hits) {
    const entry = bySubject.get(hit.term.subject);
    if (!entry) bySubject.set(hit.term.subject, { best: score, rest: 0, at: hit.at, named: hit.term.label, via: hit.via });
    else {
      entry.rest += Math.min(entry.best, score);
      if (score > entry.best) entry.via = hit.via;
      entry.best = Math.max(entry.best, score);
      entry.at = Math.min(entry.at, hit.at);
      entry.named ||= hit.term.label;
    }
  }
  return (
    [...bySubject.entries()]
      .map(([subject, entry]) => ({
        subject,
        at: entry.at,
        named: entry.named,
        via: entry.via,
        score: entry.best + 0.25 * Math.min(entry.rest, entry.best) + 0.6 * (1 - entry.at),
      }))
      // Among equals, the emoji order: the plain cat before the black one, the telephone before the fax.
      .sort((a, b) => b.score - a.score || a.at - b.at || order(a.subject) - order(b.subject))
  );
}

const order = (subject: Subject): number => subject.order;

/**
 * Subjects that belong with this one, best first: those of its kind (Unicode's subgroup: the bee's
 * fellow bugs, the bicycle's fellow vehicles) sharing its keywords first, then others sharing its
 * rarest keywords (the honeybee's "honey" brings the honey pot).
 */
export function relatedSubjects(subject: Subject, limit = 6): Subject[] {
  const english = indexFor('en') as LatinIndex;
  const scores = new Map<Subject, number>();
  for (const tag of subject.tags) {
    const terms = english.phrases.get(wordsOf(tag).map(english.stem).join(' ')) ?? [];
    for (const term of terms) if (term.subject !== subject) scores.set(term.subject, (scores.get(term.subject) ?? 0) + term.weight);
  }
  for (const other of subjects().list) {
    if (other !== subject && other.subgroup === subject.subgroup) scores.set(other, (scores.get(other) ?? 0) + 0.5);
  }
  for (const [other, score] of scores) if (other.subgroup === subject.subgroup && score > 0.5) scores.set(other, score + 1);
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].order - b[0].order)
    .slice(0, limit)
    .map(([related]) => related);
}
