import type { ProviderChoice } from '@reelsmith/pipeline';
import { z } from 'zod';
import type { AppSettings } from '../app-settings.js';

export const STORY_PROVIDER_IDS = ['offline', 'openai'] as const;
export const IMAGE_PROVIDER_IDS = ['offline', 'openai', 'pexels', 'unsplash'] as const;
export const RESEARCH_PROVIDER_IDS = ['wikipedia', 'off'] as const;

const providerSettingsSchema = z.looseObject({
  storyProvider: z.enum(STORY_PROVIDER_IDS).optional(),
  imageProvider: z.enum(IMAGE_PROVIDER_IDS).optional(),
  researchProvider: z.enum(RESEARCH_PROVIDER_IDS).optional(),
});

/**
 * The admin's story, image and research provider choices, kept in the shared app settings next to the voice
 * provider (voices/voice-settings.ts) so every process runs new jobs with the same choice.
 */
export class ProviderSettings {
  constructor(private readonly document: AppSettings) {}

  /** The persisted choices; an unset one means the environment's default. */
  choice(): ProviderChoice {
    const { storyProvider, imageProvider, researchProvider } = this.document.read(providerSettingsSchema);
    return {
      ...(storyProvider ? { story: storyProvider } : {}),
      ...(imageProvider ? { images: imageProvider } : {}),
      ...(researchProvider ? { research: researchProvider } : {}),
    };
  }

  async setChoice(next: ProviderChoice): Promise<void> {
    await this.document.update({
      ...(next.story ? { storyProvider: next.story } : {}),
      ...(next.images ? { imageProvider: next.images } : {}),
      ...(next.research ? { researchProvider: next.research } : {}),
    });
  }
}
