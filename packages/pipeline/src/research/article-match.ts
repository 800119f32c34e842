/**
 * Which Wikipedia article a topic is about: its title read against the topic's words (accent- and
 * case-insensitive, plural and compound aware), else the search's top hit when the sentence that
 * opens it defines the topic's subject.
 */

/** Words that never decide a match ("Why", "the", "haben"). */
const FILLER = new Set(
  (
    'a an the of and or in on at to for from by is are was were be why how what who when where which do does did have has had ' +
    'der die das und oder in im am an zu von mit ist sind warum wie was wer wann wo haben hat ein eine einen ' +
    'el la los las y o en de del con es son por que qué como cómo un una se su sus ' +
    'le la les et ou en de du des avec est sont pourquoi comment un une ' +
    'o a os as e ou em de do da dos das com é são por que como um uma'
  )
    .split(' ')
    .map((word) => fold(word)),
);

/** Lower case without accents: "Volcán" and "volcan" are one word, as Wikipedia's search folds them. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

/** The words of a title or topic that can decide a match, folded, without a parenthesised note. */
export function matchWords(text: string): string[] {
  return fold(text.normalize('NFKC'))
    .replace(/\([^)]*\)/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word && !FILLER.has(word));
}

/**
 * Same word, or one an inflection of the other: "octopus"/"octopuses", "herz"/"herzen",
 * "volcan"/"volcanes". A shorter word than four letters matches only its plural in "s" ("bee"/"bees").
 */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  // A three-letter word only with its plural "s": "bee"/"bees", never "bee"/"beer".
  if (short.length === 3) return long === `${short}s`;
  return short.length >= 4 && long.startsWith(short) && long.length - short.length <= 3;
}

/**
 * Whether every word of `wanted` is said by `said`, word by word or as a compound either way
 * ("honey bee" in "honeybees", "honeybee" in "honey bees").
 */
function covers(wanted: readonly string[], said: readonly string[]): boolean {
  let index = 0;
  outer: while (index < wanted.length) {
    // The longest run of wanted words one said word (or two said words run together) stands for.
    for (let end = wanted.length; end > index; end--) {
      const run = wanted.slice(index, end).join('');
      // Words run together match a compound that starts with all of them ("honeybees"), never one
      // that is only their first word and a few letters ("hearts" is not "heart soul").
      const single = end === index + 1;
      const found =
        said.some((word) => (single ? sameWord(run, word) : word.startsWith(run) && word.length - run.length <= 3)) ||
        said.some((word, at) => at + 1 < said.length && run.length > word.length + 2 && sameWord(run, word + said[at + 1]!)) ||
        // A short word ("bee") matches only exactly, or inside a compound run.
        (single && run.length < 4 && run.length >= 3 && said.includes(run));
      if (found) {
        index = end;
        continue outer;
      }
    }
    return false;
  }
  return true;
}

const SPACELESS_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * An article clearly matches a topic when every word of its title (less a "(disambiguation)" note)
 * is a word of the topic: "Octopus" for "Why octopuses have three hearts", "Honey bee" for "How
 * honeybees talk by dancing", "Volcán" for "Cómo se forman los volcanes"; never "Heart and Soul"
 * for a topic that names only hearts. Topics in spaceless scripts (Japanese) match when the title
 * appears in them whole.
 */
export function titleMatchesTopic(title: string, topic: string): boolean {
  const titleWords = matchWords(title);
  if (titleWords.length === 0) return false;
  const bare = title.replace(/\s*\([^)]*\)\s*/g, '').trim();
  if (SPACELESS_SCRIPT.test(bare)) return bare.length >= 2 && topic.includes(bare);
  const topicWords = matchWords(topic);
  if (titleWords.length === 1 && titleWords[0]!.length < 3) return false;
  return covers(titleWords, topicWords);
}

/** "X is a…": the subject a definition opens with, per language (the lead sentence of an article). */
export const DEFINES: Readonly<Record<string, RegExp>> = {
  en: /^(.+?)\s(?:is|was|are|were)\s(?:a|an|the|one|any)\s/u,
  de: /^(.+?)\s(?:ist|war|sind|waren|bezeichnet|nennt man)\s(?:ein|eine|einen|der|die|das)?\s?/u,
  es: /^(.+?)\s(?:es|fue|son|eran)\s(?:un|una|el|la|los|las|cualquier)\s/u,
  fr: /^(.+?)\s(?:est|était|sont|étaient)\s(?:un|une|le|la|les|l['’])\s?/u,
  pt: /^(.+?)\s(?:é|foi|são|eram)\s(?:um|uma|o|a|os|as|qualquer)\s/u,
  ja: /^(.+?)は/u,
};

/** The first sentence of an article's text (to its first full stop, at most 400 characters). */
function leadSentence(text: string): string {
  const first = text.trim().split(/\n/u)[0] ?? '';
  const end = /[.!?。！？।](?:\s|$)/u.exec(first);
  return (end ? first.slice(0, end.index + 1) : first).slice(0, 400);
}

/**
 * True when the article's lead sentence defines the topic's subject: the part before its "is a…"
 * ("The western honey bee or European honey bee (Apis mellifera)") says a word of the topic, in
 * any inflection or compound ("honeybees"). This is how a search's top hit whose title the topic
 * does not name ("Apis mellifera") is still recognised as the topic's article.
 */
export function leadDefinesTopic(text: string, topic: string, language: string): boolean {
  const lead = leadSentence(text);
  const pattern = DEFINES[language.toLowerCase().slice(0, 2)];
  const subject = pattern?.exec(lead)?.[1];
  if (!subject) return false;
  if (SPACELESS_SCRIPT.test(subject)) {
    const bare = subject.replace(/（[^）]*）|\([^)]*\)/gu, '').trim();
    return bare.length >= 2 && topic.includes(bare);
  }
  const subjectWords = matchWords(subject);
  const topicWords = matchWords(topic).filter((word) => word.length >= 4);
  // Each distinctive topic word, and each pair run together, against the subject's words and pairs.
  return topicWords.some((word) => covers([word], subjectWords));
}
