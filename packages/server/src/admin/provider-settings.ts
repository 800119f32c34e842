import type { ProviderChoice } from '@reelsmith/pipeline';
import { z } from 'zod';
import { SettingsDocument } from '../settings-document.js';

export const STORY_PROVIDER_IDS = ['offline', 'openai'] as const;
export const IMAGE_PROVIDER_IDS = ['offline', 'openai'] as const;

const providerSettingsSchema = z.looseObject({
  storyProvider: z.enum(STORY_PROVIDER_IDS).optional(),
  imageProvider: z.enum(IMAGE_PROVIDER_IDS).optional(),
});

/**
 * The admin's story and image provider choices, kept in DATA_DIR/settings.json next to the voice
 * provider (voices/voice-settings.ts) so all provider switches survive a restart the same way.
 */
export class ProviderSettingsFile {
  private readonly document: SettingsDocument;

  constructor(readonly file: string) {
    this.document = new SettingsDocument(file);
  }

  /** The persisted choices; an unset one means the environment's default. */
  choice(): ProviderChoice {
    const { storyProvider, imageProvider } = this.document.read(providerSettingsSchema);
    return { ...(storyProvider ? { story: storyProvider } : {}), ...(imageProvider ? { images: imageProvider } : {}) };
  }

  setChoice(next: ProviderChoice): void {
    this.document.update({
      ...(next.story ? { storyProvider: next.story } : {}),
      ...(next.images ? { imageProvider: next.images } : {}),
    });
  }
}
