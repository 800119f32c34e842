import { voiceProviderSchema, type VoiceProviderId } from '@reelsmith/contracts';
import { z } from 'zod';
import type { AppSettings } from '../app-settings.js';

/**
 * What a fresh install narrates with until an admin picks a provider: VOICE_PROVIDER, by default
 * `neural` (the natural voices; espeak-ng speaks for them, with a note, until their model is there).
 * The environment passed may be a test's own small one, so the process's own VOICE_PROVIDER counts
 * when it names none (as the test runs' `offline` does).
 */
export function defaultVoiceProvider(env: Record<string, string | undefined> = process.env): VoiceProviderId {
  const named = voiceProviderSchema.safeParse(env.VOICE_PROVIDER ?? process.env.VOICE_PROVIDER);
  return named.success ? named.data : 'neural';
}

const settingsFileSchema = z.looseObject({ voiceProvider: z.optional(voiceProviderSchema) });

/** The voice provider new jobs narrate with, kept in the shared app settings (see AppSettings). */
export class VoiceSettings {
  constructor(
    private readonly document: AppSettings,
    private readonly fallback: VoiceProviderId = defaultVoiceProvider(),
  ) {}

  voiceProvider(): VoiceProviderId {
    return this.document.read(settingsFileSchema).voiceProvider ?? this.fallback;
  }

  async setVoiceProvider(provider: VoiceProviderId): Promise<void> {
    await this.document.update({ voiceProvider: provider });
  }
}
