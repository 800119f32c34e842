import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { voiceLanguageSchema, voiceSchema, type Voice, type VoiceLanguage } from '@reelsmith/contracts';

/** An offline voice: what the studio shows (contracts `Voice`) plus how espeak-ng produces it. */
export const offlineVoiceSchema = z.object({
  ...voiceSchema.shape,
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)+$/, 'ids are lower-case, dash-separated'),
  language: voiceLanguageSchema,
  /** espeak-ng voice name, e.g. "en-us", "cmn". */
  espeakVoice: z.string().min(2),
  /** espeak-ng variant file, e.g. "m3", "f5", "grandma", "whisperf". */
  variant: z.string().min(1),
  /** 0-99, 50 is the variant's own pitch. */
  pitch: z.number().int().min(0).max(99),
  /** 0-99 pitch range (intonation); 50 is espeak's default. */
  pitchRange: z.number().int().min(0).max(99),
  /** Words per minute on espeak's scale. */
  speed: z.number().int().min(80).max(450),
});
export type OfflineVoice = z.infer<typeof offlineVoiceSchema>;

export const offlineVoiceCatalogueSchema = z.object({ voices: z.array(offlineVoiceSchema).min(1) }).superRefine((catalogue, context) => {
  const seen = new Set<string>();
  for (const voice of catalogue.voices) {
    if (seen.has(voice.id)) context.addIssue({ code: 'custom', message: `Duplicate voice id ${voice.id}` });
    seen.add(voice.id);
  }
  for (const language of voiceLanguageSchema.options) {
    for (const gender of ['male', 'female'] as const) {
      const count = catalogue.voices.filter((voice) => voice.language === language && voice.gender === gender).length;
      if (count < 2) context.addIssue({ code: 'custom', message: `${language} needs at least 2 ${gender} voices, has ${count}` });
    }
  }
});

export const OFFLINE_VOICES_FILE = new URL('../../data/voices/offline.json', import.meta.url);

let catalogue: OfflineVoice[] | undefined;

/** Every offline voice, validated on first use; a malformed data file fails loudly. */
export function loadOfflineVoices(): readonly OfflineVoice[] {
  if (catalogue) return catalogue;
  const parsed = offlineVoiceCatalogueSchema.safeParse(JSON.parse(readFileSync(OFFLINE_VOICES_FILE, 'utf8')));
  if (!parsed.success) throw new Error(`Offline voice catalogue is invalid: ${z.prettifyError(parsed.error)}`);
  catalogue = parsed.data.voices;
  return catalogue;
}

export function getOfflineVoices(language: VoiceLanguage | string): OfflineVoice[] {
  const code = language.toLowerCase().slice(0, 2);
  return loadOfflineVoices().filter((voice) => voice.language === code);
}

export function getOfflineVoice(id: string): OfflineVoice | undefined {
  return loadOfflineVoices().find((voice) => voice.id === id);
}

/** The first voice listed for the language (a clear young-adult narrator), or undefined for unknown languages. */
export function defaultOfflineVoice(language: VoiceLanguage | string): OfflineVoice | undefined {
  return getOfflineVoices(language)[0];
}

/** The studio's view of a voice, without the espeak settings. */
export function toPublicVoice(voice: OfflineVoice): Voice {
  return { id: voice.id, name: voice.name, description: voice.description, gender: voice.gender, accent: voice.accent, age: voice.age };
}
