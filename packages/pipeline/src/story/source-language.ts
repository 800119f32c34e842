import { detectAll } from 'tinyld';
import { LANGUAGE_NAMES, type VoiceLanguage } from '@reelsmith/contracts';

/** Enough text for the detector to be sure; more only costs time on a long article. */
const SAMPLE_CHARACTERS = 4000;
/** Below this share of the detector's confidence the source's language is taken as unknown. */
const MIN_ACCURACY = 0.5;

/**
 * The language a source is written in (ISO 639-1), detected offline by tinyld from a sample of the
 * text; null when the text is too short or too mixed to tell.
 */
export function detectSourceLanguage(text: string): string | null {
  const sample = text.replace(/\s+/g, ' ').trim().slice(0, SAMPLE_CHARACTERS);
  if (sample.length < 20) return null;
  const [best] = detectAll(sample);
  return best && best.accuracy >= MIN_ACCURACY ? best.lang : null;
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
