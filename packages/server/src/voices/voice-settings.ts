import { voiceProviderSchema, type VoiceProviderId } from '@reelsmith/contracts';
import { z } from 'zod';
import { SettingsDocument } from '../settings-document.js';

/** What a fresh install narrates with: the offline voices need no account or key. */
export const DEFAULT_VOICE_PROVIDER: VoiceProviderId = 'offline';

const settingsFileSchema = z.looseObject({ voiceProvider: voiceProviderSchema.optional() });

/** The voice provider new jobs narrate with, kept in DATA_DIR/settings.json (see SettingsDocument). */
export class SettingsFile {
  private readonly document: SettingsDocument;

  constructor(readonly file: string) {
    this.document = new SettingsDocument(file);
  }

  voiceProvider(): VoiceProviderId {
    return this.document.read(settingsFileSchema).voiceProvider ?? DEFAULT_VOICE_PROVIDER;
  }

  setVoiceProvider(provider: VoiceProviderId): void {
    this.document.update({ voiceProvider: provider });
  }
}
