import * as z from 'zod/mini';
import { readFileSync } from 'node:fs';
import { VOICE_LANGUAGES, voiceSchema } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import {
  defaultOfflineVoice,
  getOfflineVoice,
  getOfflineVoices,
  loadOfflineVoices,
  OFFLINE_VOICES_FILE,
  offlineVoiceCatalogueSchema,
  toPublicVoice,
} from './voice-catalogue.js';

describe('offline voice catalogue', () => {
  it('validates against its schema', () => {
    const raw: unknown = JSON.parse(readFileSync(OFFLINE_VOICES_FILE, 'utf8'));
    expect(offlineVoiceCatalogueSchema.safeParse(raw).success).toBe(true);
    expect(loadOfflineVoices().length).toBeGreaterThan(0);
  });

  it('rejects a catalogue with duplicate ids or too few voices', () => {
    const voices = loadOfflineVoices();
    const duplicated = { voices: [...voices, voices[0]] };
    expect(offlineVoiceCatalogueSchema.safeParse(duplicated).success).toBe(false);
    const onlyEnglish = { voices: voices.filter((voice) => voice.language === 'en') };
    expect(offlineVoiceCatalogueSchema.safeParse(onlyEnglish).success).toBe(false);
  });

  it('has unique ids', () => {
    const ids = loadOfflineVoices().map((voice) => voice.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(VOICE_LANGUAGES)('offers at least 2 male and 2 female voices with distinct names in %s', (language) => {
    const voices = getOfflineVoices(language);
    expect(voices.filter((voice) => voice.gender === 'male').length).toBeGreaterThanOrEqual(2);
    expect(voices.filter((voice) => voice.gender === 'female').length).toBeGreaterThanOrEqual(2);
    expect(new Set(voices.map((voice) => voice.name)).size).toBe(voices.length);
    expect(new Set(voices.map((voice) => `${voice.espeakVoice}+${voice.variant}`)).size).toBe(voices.length);
    expect(defaultOfflineVoice(language)?.language).toBe(language);
  });

  it('looks voices up by id and exposes the contracts Voice shape', () => {
    const voice = getOfflineVoice('en-us-m3');
    expect(voice?.accent).toBe('American');
    expect(getOfflineVoice('hi-in-m3')?.name).toBe('Arjun');
    expect(getOfflineVoice('nope')).toBeUndefined();
    expect(z.strictObject(voiceSchema.shape).safeParse(toPublicVoice(voice!)).success).toBe(true);
  });
});
