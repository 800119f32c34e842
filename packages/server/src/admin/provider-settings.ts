import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ProviderChoice } from '@reelsmith/pipeline';
import { z } from 'zod';

export const STORY_PROVIDER_IDS = ['offline', 'openai'] as const;
export const IMAGE_PROVIDER_IDS = ['offline', 'openai'] as const;

const providerSettingsSchema = z.looseObject({
  storyProvider: z.enum(STORY_PROVIDER_IDS).optional(),
  imageProvider: z.enum(IMAGE_PROVIDER_IDS).optional(),
});

/**
 * The admin's story and image provider choices, kept in DATA_DIR/settings.json next to the voice
 * provider (voices/voice-settings.ts) so all provider switches survive a restart the same way. The
 * file is shared: keys written by other features are kept, and the write is a temp file renamed into
 * place. Nothing is cached, so a switch is seen by the next job that starts.
 */
export class ProviderSettingsFile {
  constructor(readonly file: string) {}

  private read(): z.infer<typeof providerSettingsSchema> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return {};
    }
    const parsed = providerSettingsSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.file} is not a valid settings file: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  /** The persisted choices; an unset one means the environment's default. */
  choice(): ProviderChoice {
    const { storyProvider, imageProvider } = this.read();
    return { ...(storyProvider ? { story: storyProvider } : {}), ...(imageProvider ? { images: imageProvider } : {}) };
  }

  setChoice(next: ProviderChoice): void {
    const current = this.read();
    const updated = {
      ...current,
      ...(next.story ? { storyProvider: next.story } : {}),
      ...(next.images ? { imageProvider: next.images } : {}),
    };
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(updated, null, 2)}\n`);
    renameSync(temp, this.file);
  }
}
