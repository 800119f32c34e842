import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { voiceProviderSchema, type VoiceProviderId } from '@reelsmith/contracts';
import { z } from 'zod';

/** What a fresh install narrates with: the offline voices need no account or key. */
export const DEFAULT_VOICE_PROVIDER: VoiceProviderId = 'offline';

const settingsFileSchema = z.looseObject({ voiceProvider: voiceProviderSchema.optional() });

/**
 * Server-wide settings kept in DATA_DIR/settings.json (a small JSON document rather than a table:
 * it holds a handful of admin choices and must survive restarts, nothing more). Unknown keys
 * written by other features are preserved; writes go to a temp file and are renamed into place.
 */
export class SettingsFile {
  constructor(readonly file: string) {}

  private read(): z.infer<typeof settingsFileSchema> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return {};
    }
    const parsed = settingsFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.file} is not a valid settings file: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  voiceProvider(): VoiceProviderId {
    return this.read().voiceProvider ?? DEFAULT_VOICE_PROVIDER;
  }

  setVoiceProvider(provider: VoiceProviderId): void {
    const next = { ...this.read(), voiceProvider: provider };
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`);
    renameSync(temp, this.file);
  }
}
