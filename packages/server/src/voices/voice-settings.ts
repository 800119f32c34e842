import { voiceProviderSchema, type VoiceProviderId } from '@reelsmith/contracts';
import { z } from 'zod';
import type { AppSettings } from '../app-settings.js';

/** What a fresh install narrates with: the offline voices need no account or key. */
export const DEFAULT_VOICE_PROVIDER: VoiceProviderId = 'offline';

const settingsFileSchema = z.looseObject({ voiceProvider: z.optional(voiceProviderSchema) });

/** The voice provider new jobs narrate with, kept in the shared app settings (see AppSettings). */
export class VoiceSettings {
  constructor(private readonly document: AppSettings) {}

  voiceProvider(): VoiceProviderId {
    return this.document.read(settingsFileSchema).voiceProvider ?? DEFAULT_VOICE_PROVIDER;
  }

  async setVoiceProvider(provider: VoiceProviderId): Promise<void> {
    await this.document.update({ voiceProvider: provider });
  }
}
