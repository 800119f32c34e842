import { withoutStrandedPreposition } from './sentence-core.js';
import { fold, questionWordKind, readTopic, sameStem, stems } from './topic-focus.js';

/**
 * The lines that make a researched telling a script rather than a row of sentences: a first line that
 * names what the creator asked about when the article's definition does not fit, the definition
 * said by its main clause when the whole sentence would crowd out the answer, and a last line that
 * closes. Every word is the article's or the topic's; the only words of our own are a closing line's
 * connective ("That is", "Por eso", "Deshalb"), which says that what came before was the answer.
 */

const base = (language: string) => language.toLowerCase().slice(0, 2);

/** English words that make "How do bats…" a direct question ("How the wall was built" is not). */
const EN_AUXILIARIES = /^(?:do|does|did|is|are|was|were|can|could|will|would|should|has|have|had|may|might|must)$/u;

/** "How" and a degree word ask directly without an auxiliary: "How many moons has Jupiter?", "How far is the Moon?". */
const EN_HOW_DEGREE = /^(?:many|much|long|far|big|old|fast|tall|deep|high|hot|cold|large|small|often|heavy|loud|bright)$/u;

/**
 * The topic as the narration's first line: "How do bats find food in the dark?", "Why the sky is
 * blue.", "¿Cómo se forman los huracanes?", "L'histoire de la tour Eiffel." A question is asked as
 * one; a subject or an indirect question ("Why the sky is blue") is said as a title.
 */
export function topicLine(topic: string, language: string): string {
  const text = topic
    .trim()
    .replace(/[\s.!?¿¡:;,…]+$/u, '')
    .replace(/^[¿¡]\s*/u, '')
    .replace(/\s+/gu, ' ');
  if (!text) return '';
  const sentence = text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
  if (questionWordKind(text) === 'subject' || germanIndirect(text, language)) return `${sentence}.`;
  switch (base(language)) {
    case 'en': {
      // "Why/How/Where/When" asks directly only with an auxiliary after it ("How do bats find…");
      // without one the topic is an indirect question, said as a title ("How honeybees talk by
      // dancing.", "Why the sky is blue.").
      const [first = '', second = ''] = text.toLowerCase().split(' ');
      const indirect =
        /^(?:why|how|where|when)$/u.test(first) && !EN_AUXILIARIES.test(second) && !(first === 'how' && EN_HOW_DEGREE.test(second));
      return indirect ? `${sentence}.` : `${sentence}?`;
    }
    case 'es':
      return `¿${sentence}?`;
    case 'fr':
      return `${sentence} ?`;
    default:
      return `${sentence}?`;
  }
}

/**
 * A closing line that says the question has been answered, from the topic's own words: "That is why
 * the sky is blue.", "That is how bats find food in the dark.", "Por eso los flamencos son
 * rosados.", "So entsteht ein Regenbogen.", "Voilà pourquoi la tour de Pise penche." Empty when the
 * topic is not a why/how/what question this can be said of without changing its verb ("Why does
 * the tower lean" would need "leans").
 */
export function closingLine(topic: string, language: string): string {
  const text = topic
    .trim()
    .replace(/[\s.!?¿¡:;,…]+$/u, '')
    .replace(/^[¿¡]\s*/u, '')
    .replace(/\s+/gu, ' ');
  const words = text.split(' ');
  if (words.length < 3) return '';
  const first = fold(words[0]!);
  const two = fold(words.slice(0, 2).join(' '));
  const rest = (from: number) => words.slice(from).join(' ');
  switch (base(language)) {
    case 'en': {
      if (!/^(?:why|how|what)$/u.test(first)) return '';
      const second = words[1]!.toLowerCase();
      // "How do bats find…" → "That is how bats find…"; "does"/"is" would change the verb's form.
      if (second === 'do') return `That is ${first} ${rest(2)}.`;
      if (EN_AUXILIARIES.test(second)) return '';
      return `That is ${first} ${rest(1)}.`;
    }
    case 'es':
      if (first === 'como') return `Así ${rest(1)}.`;
      if (two === 'por que') return `Por eso ${rest(2)}.`;
      return '';
    case 'pt':
      if (first === 'como') return `Assim ${rest(1)}.`;
      if (two === 'por que' || first === 'porque') return `Por isso ${rest(first === 'porque' ? 1 : 2)}.`;
      return '';
    case 'fr':
      if (first === 'pourquoi') return `Voilà pourquoi ${rest(1)}.`;
      if (first === 'comment') return `Voilà comment ${rest(1)}.`;
      return '';
    case 'de': {
      const connective = /^(?:warum|wieso|weshalb)$/u.test(first) ? 'Deshalb' : first === 'wie' ? 'So' : '';
      if (!connective) return '';
      // The verb goes second: "Warum ziehen Vögel…" → "Deshalb ziehen Vögel…"; an indirect question
      // ends on its verb ("Warum Zugvögel … fliegen" → "Deshalb fliegen Zugvögel …").
      if (!germanIndirect(text, language)) return `${connective} ${rest(1)}.`;
      return `${connective} ${words.at(-1)!} ${words.slice(1, -1).join(' ')}.`;
    }
    default:
      return '';
  }
}

/** German articles and pronouns that open a subject: after "Warum" they make the question indirect. */
const DE_SUBJECT_START = /^(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer|man|er|sie|es|wir|ihr|ich|du|viele|manche|alle)$/u;

/**
 * "Warum Zugvögel im Herbst nach Süden fliegen": a German question whose second word opens its
 * subject (a noun, written with a capital, or an article) is indirect, with its verb last.
 */
function germanIndirect(text: string, language: string): boolean {
  if (base(language) !== 'de') return false;
  const second = text.split(' ')[1] ?? '';
  return /^\p{Lu}/u.test(second) || DE_SUBJECT_START.test(second.toLowerCase());
}

/** Words that mark a sentence as the conclusion of what came before ("…, so the whole sky looks blue."). */
const CONCLUDES: Record<string, RegExp> = {
  en: /(?:^|[,;:—–]\s*)(?:so|thus|therefore|hence)\b|\b(?:that is why|this is why|as a result|which is why)\b/iu,
  es: /\b(?:por eso|por ello|por lo tanto|así que|de modo que|de ahí)\b/iu,
  fr: /\b(?:c['’]est pourquoi|donc|ainsi|voilà pourquoi|de sorte que)\b/iu,
  de: /\b(?:deshalb|deswegen|daher|darum|also|somit|sodass)\b/iu,
  pt: /\b(?:por isso|portanto|assim|de modo que|daí)\b/iu,
};

/**
 * True when a sentence can end the video: it concludes ("so…", "Por eso…"), or it says the topic's
 * own words beyond its subject (it restates what was asked: "…the whole sky looks blue").
 */
export function closesAnswer(sentence: string, topic: string, title: string, language: string): boolean {
  if (CONCLUDES[base(language)]?.test(sentence)) return true;
  const { focus, subject } = readTopic(topic, title, language);
  if (focus.length === 0) return false;
  const said = stems(sentence, language);
  const says = (stem: string) => said.some((term) => sameStem(term, stem));
  // It restates the question: all that is asked of the subject, and the subject ("…the whole sky looks blue").
  const subjectNamed = subject.length === 0 ? focus.length > 1 : subject.some(says) || stems(title, language).some(says);
  return focus.every(says) && subjectNamed;
}

/** Where a definition's main clause ends: before a relative clause or a trailing phrase after a comma. */
const DEFINITION_TAIL: Record<string, RegExp> = {
  en: /,\s|\s(?=(?:that|which|who|whose|where)\s)/gu,
  es: /,\s|\s(?=(?:que|cuyo|cuya|donde)\s)/gu,
  fr: /,\s|\s(?=(?:qui|que|dont|où)\s)/gu,
  pt: /,\s|\s(?=(?:que|cujo|cuja|onde)\s)/gu,
  de: /,\s/gu,
};

/** "X is a…" per language: the definition's subject and verb end where its predicate starts. */
const DEFINITION_VERB: Record<string, RegExp> = {
  en: /\s(?:is|was|are|were)\s(?:a|an|the|one)\s/u,
  de: /\s(?:ist|war|sind|waren)\s(?:ein|eine|der|die|das)\s/u,
  es: /\s(?:es|fue|son|eran)\s(?:un|una|el|la|los|las)\s/u,
  fr: /\s(?:est|était|sont|étaient)\s(?:un|une|le|la|les)\s/u,
  pt: /\s(?:é|foi|são|eram)\s(?:um|uma|o|a|os|as)\s/u,
};

/**
 * A defining sentence said by its main clause: "The Great Wall of China is a series of
 * fortifications that were built across…" → "The Great Wall of China is a series of fortifications."
 * The cut falls after the predicate's first noun phrase (at least `minWords` words in all), before a
 * relative clause or at a comma; undefined when the sentence has no such cut.
 */
export function definitionMainClause(sentence: string, language: string, minWords = 5): string | undefined {
  const verb = DEFINITION_VERB[base(language)]?.exec(sentence);
  const tail = DEFINITION_TAIL[base(language)];
  if (!verb || !tail) return undefined;
  const predicateStart = verb.index + verb[0].length;
  for (const match of sentence.matchAll(tail)) {
    // Without the preposition a relative pronoun took ("…terrestre por la | que…"), then two words
    // at least of the predicate: "is a | series of…" would cut its noun off.
    const kept = withoutStrandedPreposition(sentence.slice(0, match.index).replace(/[\s,;:—–]+$/u, ''), language);
    if (kept.length <= predicateStart || sentence.slice(predicateStart, kept.length).split(/\s+/u).length < 2) continue;
    if (kept.split(/\s+/u).length < minWords) continue;
    return `${kept}.`;
  }
  return undefined;
}
