import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { VOICE_LANGUAGES, voiceSchema } from '@reelsmith/contracts';
import {
  azureCatalogueSchema,
  elevenLabsCatalogueSchema,
  expectedSampleCount,
  findVoice,
  getVoices,
  groupByGender,
  loadAzureVoices,
  loadElevenLabsCatalogue,
  sampleSlots,
  validateVoiceCatalogues,
} from './provider-catalogues.js';
import { loadOfflineVoices } from './voice-catalogue.js';

const PROVIDERS = ['azure', 'elevenlabs', 'offline'] as const;

describe('provider voice catalogues', () => {
  it('load and validate all three data files', () => {
    expect(() => validateVoiceCatalogues()).not.toThrow();
  });

  it.each(PROVIDERS)('%s offers male and female voices in every voice language, shaped as the contract says', (provider) => {
    for (const language of VOICE_LANGUAGES) {
      const voices = getVoices(provider, language);
      for (const voice of voices) expect(z.strictObject(voiceSchema.shape).parse(voice)).toEqual(voice);
      const { male, female } = groupByGender(voices);
      expect(male.length, `${provider} ${language} male`).toBeGreaterThan(0);
      expect(female.length, `${provider} ${language} female`).toBeGreaterThan(0);
    }
  });

  it('azure voices speak their own language only', () => {
    expect(getVoices('azure', 'en').map((voice) => voice.id)).toContain('en-US-JennyNeural');
    expect(getVoices('azure', 'hi').map((voice) => voice.id)).toContain('hi-IN-MadhurNeural');
    for (const language of VOICE_LANGUAGES) {
      for (const voice of getVoices('azure', language)) expect(voice.id.slice(0, 2)).toBe(language);
    }
  });

  it('elevenlabs offers the same voices in every language with a per-language accent note', () => {
    const english = getVoices('elevenlabs', 'en');
    const hindi = getVoices('elevenlabs', 'hi');
    expect(hindi.map((voice) => voice.id)).toEqual(english.map((voice) => voice.id));
    const rachel = hindi.find((voice) => voice.id === '21m00Tcm4TlvDq8ikWAM');
    expect(rachel?.name).toBe('Rachel');
    expect(rachel?.accent).toMatch(/Hindi/);
    expect(english.find((voice) => voice.id === '21m00Tcm4TlvDq8ikWAM')?.accent).toBe('American');
  });

  it('findVoice finds a voice only under its own provider', () => {
    expect(findVoice('azure', 'en-US-JennyNeural')).toMatchObject({ name: 'Jenny', gender: 'female', languages: ['en'] });
    expect(findVoice('elevenlabs', '21m00Tcm4TlvDq8ikWAM')?.languages).toEqual([...VOICE_LANGUAGES]);
    const offline = loadOfflineVoices()[0]!;
    expect(findVoice('offline', offline.id)).toMatchObject({ id: offline.id, languages: [offline.language] });
    expect(findVoice('azure', '21m00Tcm4TlvDq8ikWAM')).toBeUndefined();
    expect(findVoice('offline', 'en-US-JennyNeural')).toBeUndefined();
  });

  it('derives the expected sample count from the catalogues', () => {
    expect(expectedSampleCount('azure')).toBe(loadAzureVoices().length);
    expect(expectedSampleCount('elevenlabs')).toBe(loadElevenLabsCatalogue().voices.length * VOICE_LANGUAGES.length);
    expect(expectedSampleCount('offline')).toBe(loadOfflineVoices().length);
    const slots = sampleSlots('elevenlabs');
    expect(new Set(slots.map((slot) => `${slot.voiceId}-${slot.language}`)).size).toBe(slots.length);
  });

  it('rejects malformed catalogues', () => {
    const jenny = {
      id: 'en-US-JennyNeural',
      language: 'en',
      locale: 'en-US',
      name: 'Jenny',
      description: 'x',
      gender: 'female',
      accent: 'American',
      age: 'adult',
    };
    expect(azureCatalogueSchema.safeParse({ voices: [jenny] }).success).toBe(false); // other languages missing
    const full = azureCatalogueSchema.safeParse({ voices: [...loadAzureVoices(), jenny] });
    expect(full.success).toBe(false);
    expect(full.error?.issues.some((issue) => issue.message.includes('Duplicate voice id en-US-JennyNeural'))).toBe(true);
    const wrongLocale = azureCatalogueSchema.safeParse({
      voices: [...loadAzureVoices().filter((v) => v.id !== 'en-US-JennyNeural'), { ...jenny, locale: 'en-GB' }],
    });
    expect(wrongLocale.success).toBe(false);
    const eleven = loadElevenLabsCatalogue();
    const { ko: _ko, ...missingKorean } = eleven.accentNotes;
    expect(elevenLabsCatalogueSchema.safeParse({ ...eleven, accentNotes: missingKorean }).success).toBe(false);
    expect(elevenLabsCatalogueSchema.safeParse({ ...eleven, voices: [{ ...eleven.voices[0], id: 'short' }] }).success).toBe(false);
  });
});
