import { detectAll } from 'tinyld';
import { LANGUAGE_NAMES, type VoiceLanguage } from '@reelsmith/contracts';

/** Enough text for the detector to be sure; more only costs time on a long article. */
const SAMPLE_CHARACTERS = 4000;
/** Below this share of the detector's confidence the source's language is taken as unknown. */
const MIN_ACCURACY = 0.5;
/** The best guess must lead the next one by this much; a near tie is unknown, and unknown never refuses. */
const MIN_LEAD = 0.2;

/** Writing systems a text is judged by; Japanese mixes kanji and kana, so they count as one. */
const SCRIPTS: readonly RegExp[] = [
  /\p{Script_Extensions=Latin}/u,
  /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}]/u,
  /\p{Script_Extensions=Devanagari}/u,
  /\p{Script_Extensions=Cyrillic}/u,
  /\p{Script_Extensions=Arabic}/u,
  /\p{Script_Extensions=Greek}/u,
  /\p{Script_Extensions=Hangul}/u,
  /\p{Script_Extensions=Hebrew}/u,
  /\p{Script_Extensions=Thai}/u,
];

/**
 * The text as the detector should see it: zero-width and other formatting characters (\p{Cf}) go,
 * since they split words into pieces that look like another language, and only the letters of the
 * text's main writing system stay, so an English article quoting a few Hindi words is judged as
 * English.
 */
function judgedSample(text: string): string {
  const sample = text
    .replace(/\p{Cf}/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, SAMPLE_CHARACTERS);
  const counts = new Array<number>(SCRIPTS.length).fill(0);
  const scriptOf = (character: string) => SCRIPTS.findIndex((script) => script.test(character));
  for (const character of sample) {
    const script = scriptOf(character);
    if (script >= 0 && /\p{L}/u.test(character)) counts[script] = (counts[script] ?? 0) + 1;
  }
  const main = SCRIPTS[counts.indexOf(Math.max(...counts))]!;
  // Letters and marks of other scripts go, and so does their punctuation (the Devanagari danda "।").
  let kept = '';
  for (const character of sample) kept += scriptOf(character) >= 0 && !main.test(character) ? ' ' : character;
  return kept.replace(/\s+/g, ' ').trim();
}

/**
 * The language a source is written in (ISO 639-1), detected offline by tinyld from a sample of the
 * text in its main writing system; null when the text is too short or the detector is not sure.
 */
export function detectSourceLanguage(text: string): string | null {
  const sample = judgedSample(text);
  if (sample.length < 20) return null;
  const [best, next] = detectAll(sample);
  if (!best || best.accuracy < MIN_ACCURACY) return null;
  return next && best.accuracy - next.accuracy < MIN_LEAD ? null : best.lang;
}

const displayNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** The language's English name ("German"), as the messages to the creator use it. */
export function languageDisplayName(code: string): string {
  return LANGUAGE_NAMES[code as VoiceLanguage] ?? displayNames.of(code) ?? code;
}

/** True when a source in `sourceLanguage` needs translating to be narrated in `narrationLanguage`. */
export function needsTranslation(sourceLanguage: string | null | undefined, narrationLanguage: string): boolean {
  return Boolean(sourceLanguage) && sourceLanguage !== narrationLanguage.toLowerCase().slice(0, 2);
}
