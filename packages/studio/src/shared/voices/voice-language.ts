import { VOICE_FETCH_DEBOUNCE_MS, voiceLanguageSchema, type VoiceLanguage, type VoiceProviderId } from '@reelsmith/contracts';
import { useDebouncedValue } from './use-debounced-value.js';

export function asVoiceLanguage(language: string): VoiceLanguage | null {
  const parsed = voiceLanguageSchema.safeParse(language);
  return parsed.success ? parsed.data : null;
}

/**
 * The language to ask GET /voices for: 300 ms after the language (or provider) last changed
 * (typing does not fetch every keystroke), null while it is still changing or is not a voice language.
 */
export function useSettledVoiceLanguage(
  language: string,
  provider: VoiceProviderId | undefined,
): { settled: boolean; code: VoiceLanguage | null } {
  // A string key, so an unchanged language and provider never restart the delay.
  const key = `${language}|${provider ?? ''}`;
  const settled = useDebouncedValue(key, VOICE_FETCH_DEBOUNCE_MS) === key;
  return { settled, code: settled ? asVoiceLanguage(language) : null };
}
