import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  LANGUAGE_NAMES,
  VOICE_LANGUAGES,
  voiceLanguageSchema,
  voiceSchema,
  type Voice,
  type VoiceLanguage,
  type VoiceProviderId,
} from '@reelsmith/contracts';
import { getOfflineVoices, loadOfflineVoices, toPublicVoice } from './voice-catalogue.js';
import { KOKORO_VOICES, getKokoroVoices } from './kokoro-voices.js';

/** Every catalogue must offer at least this many voices of each gender in each language. */
const MIN_VOICES_PER_GENDER = 1;

function requireEveryLanguageAndGender(
  voices: readonly { language: VoiceLanguage; gender: 'male' | 'female' }[],
  context: z.RefinementCtx,
): void {
  for (const language of VOICE_LANGUAGES) {
    for (const gender of ['male', 'female'] as const) {
      const count = voices.filter((voice) => voice.language === language && voice.gender === gender).length;
      if (count < MIN_VOICES_PER_GENDER) context.addIssue({ code: 'custom', message: `${language} has no ${gender} voice` });
    }
  }
}

function requireUniqueIds(voices: readonly { id: string }[], context: z.RefinementCtx): void {
  const seen = new Set<string>();
  for (const voice of voices) {
    if (seen.has(voice.id)) context.addIssue({ code: 'custom', message: `Duplicate voice id ${voice.id}` });
    seen.add(voice.id);
  }
}

/** An Azure neural voice: its id is the service's short name, e.g. en-US-JennyNeural. */
export const azureVoiceSchema = z.object({
  ...voiceSchema.shape,
  id: z.string().regex(/^[a-z]{2,3}-[A-Z]{2}-[A-Za-z]+Neural$/, 'Azure ids look like en-US-JennyNeural'),
  language: voiceLanguageSchema,
  /** BCP-47 locale the voice speaks natively. */
  locale: z.string().regex(/^[a-z]{2,3}-[A-Z]{2}$/),
});
export type AzureVoice = z.infer<typeof azureVoiceSchema>;

export const azureCatalogueSchema = z.object({ voices: z.array(azureVoiceSchema).min(1) }).superRefine((catalogue, context) => {
  requireUniqueIds(catalogue.voices, context);
  requireEveryLanguageAndGender(catalogue.voices, context);
  for (const voice of catalogue.voices) {
    if (!voice.id.startsWith(`${voice.locale}-`))
      context.addIssue({ code: 'custom', message: `${voice.id} does not match its locale ${voice.locale}` });
    if (!voice.locale.startsWith(`${voice.language}-`))
      context.addIssue({ code: 'custom', message: `${voice.id}: locale ${voice.locale} is not ${voice.language}` });
  }
});

/** An ElevenLabs premade voice: one voice speaks every language through the multilingual model. */
export const elevenLabsVoiceSchema = z.object({
  ...voiceSchema.shape,
  id: z.string().regex(/^[A-Za-z0-9]{20}$/, 'ElevenLabs voice ids are 20 alphanumeric characters'),
});

export const elevenLabsCatalogueSchema = z
  .object({
    model: z.string().min(1),
    /** How each language sounds from these (English-trained) voices. */
    accentNotes: z.record(voiceLanguageSchema, z.string().min(1)),
    voices: z.array(elevenLabsVoiceSchema).min(1),
  })
  .superRefine((catalogue, context) => {
    requireUniqueIds(catalogue.voices, context);
    for (const language of VOICE_LANGUAGES) {
      if (!catalogue.accentNotes[language]) context.addIssue({ code: 'custom', message: `No accent note for ${language}` });
    }
    for (const gender of ['male', 'female'] as const) {
      if (!catalogue.voices.some((voice) => voice.gender === gender)) context.addIssue({ code: 'custom', message: `No ${gender} voice` });
    }
  });
export type ElevenLabsCatalogue = z.infer<typeof elevenLabsCatalogueSchema>;

const dataFile = (name: string) => new URL(`../../data/voices/${name}.json`, import.meta.url);

function loadJson<T>(name: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(JSON.parse(readFileSync(dataFile(name), 'utf8')));
  if (!parsed.success) throw new Error(`The ${name} voice catalogue is invalid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

let azure: AzureVoice[] | undefined;
let elevenLabs: ElevenLabsCatalogue | undefined;

export function loadAzureVoices(): readonly AzureVoice[] {
  azure ??= loadJson('azure', azureCatalogueSchema).voices;
  return azure;
}

export function loadElevenLabsCatalogue(): ElevenLabsCatalogue {
  elevenLabs ??= loadJson('elevenlabs', elevenLabsCatalogueSchema);
  return elevenLabs;
}

/** Validates all three catalogues now, so a broken data file stops start-up instead of a request. */
export function validateVoiceCatalogues(): void {
  loadAzureVoices();
  loadElevenLabsCatalogue();
  loadOfflineVoices();
}

const publicVoice = (voice: Voice): Voice => ({
  id: voice.id,
  name: voice.name,
  description: voice.description,
  gender: voice.gender,
  accent: voice.accent,
  age: voice.age,
});

/** The voices a provider offers in a language, in catalogue order. */
export function getVoices(provider: VoiceProviderId, language: VoiceLanguage): Voice[] {
  switch (provider) {
    case 'azure':
      return loadAzureVoices()
        .filter((voice) => voice.language === language)
        .map(publicVoice);
    case 'elevenlabs': {
      const catalogue = loadElevenLabsCatalogue();
      const note = catalogue.accentNotes[language];
      return catalogue.voices.map((voice) => ({
        ...publicVoice(voice),
        accent: language === 'en' ? voice.accent : `${voice.accent}; ${note ?? LANGUAGE_NAMES[language]}`,
      }));
    }
    case 'offline':
      return getOfflineVoices(language).map(toPublicVoice);
    case 'neural':
      // The natural voices first (the language's default), then the basic ones; German, Japanese,
      // Korean and Chinese have only the basic ones.
      return [
        ...getKokoroVoices(language).map((voice) => ({ ...publicVoice(voice), quality: 'natural' as const })),
        ...getOfflineVoices(language).map((voice) => ({ ...toPublicVoice(voice), quality: 'basic' as const })),
      ];
  }
}

export function groupByGender(voices: readonly Voice[]): { male: Voice[]; female: Voice[] } {
  return {
    male: voices.filter((voice) => voice.gender === 'male'),
    female: voices.filter((voice) => voice.gender === 'female'),
  };
}

/** A voice of the provider by id, with the languages it can speak. */
export function findVoice(provider: VoiceProviderId, id: string): (Voice & { languages: VoiceLanguage[] }) | undefined {
  switch (provider) {
    case 'azure': {
      const voice = loadAzureVoices().find((candidate) => candidate.id === id);
      return voice && { ...publicVoice(voice), languages: [voice.language] };
    }
    case 'elevenlabs': {
      const voice = loadElevenLabsCatalogue().voices.find((candidate) => candidate.id === id);
      return voice && { ...publicVoice(voice), languages: [...VOICE_LANGUAGES] };
    }
    case 'offline': {
      const voice = loadOfflineVoices().find((candidate) => candidate.id === id);
      return voice && { ...toPublicVoice(voice), languages: [voice.language] };
    }
    case 'neural': {
      const natural = KOKORO_VOICES.find((candidate) => candidate.id === id);
      if (natural) return { ...publicVoice(natural), quality: 'natural', languages: [natural.language] };
      const voice = loadOfflineVoices().find((candidate) => candidate.id === id);
      return voice && { ...toPublicVoice(voice), quality: 'basic', languages: [voice.language] };
    }
  }
}

/** One preview sample: which voice, in which language. */
export interface SampleSlot {
  voiceId: string;
  voiceName: string;
  language: VoiceLanguage;
}

/**
 * Every preview sample a provider should have. Azure keys its sample by voice alone (each voice
 * speaks one language); ElevenLabs voices have one sample per language; offline voices one each.
 */
export function sampleSlots(provider: VoiceProviderId): SampleSlot[] {
  switch (provider) {
    case 'azure':
      return loadAzureVoices().map((voice) => ({ voiceId: voice.id, voiceName: voice.name, language: voice.language }));
    case 'elevenlabs': {
      const voices = loadElevenLabsCatalogue().voices;
      return VOICE_LANGUAGES.flatMap((language) => voices.map((voice) => ({ voiceId: voice.id, voiceName: voice.name, language })));
    }
    case 'offline':
      return loadOfflineVoices().map((voice) => ({ voiceId: voice.id, voiceName: voice.name, language: voice.language }));
    case 'neural':
      // The basic voices' samples are the offline ones (the same espeak voice); only the natural voices need their own.
      return KOKORO_VOICES.map((voice) => ({ voiceId: voice.id, voiceName: voice.name, language: voice.language }));
  }
}

/** How many preview samples a complete install of the provider has, derived from its catalogue. */
export function expectedSampleCount(provider: VoiceProviderId): number {
  return sampleSlots(provider).length;
}
