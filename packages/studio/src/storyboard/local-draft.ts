import { captionStyleSchema } from '@reelsmith/contracts';
// zod's functional build, like the contracts: the classic one would pull its JSON Schema converter into
// the chunks the popup shares with the worker.
import * as z from 'zod/mini';
import type { KeyValueStorage } from '../platform.js';
import type { StoryboardDraft } from './storyboard-model.js';

const keyFor = (videoId: string) => `reelsmith-storyboard-draft:${videoId}`;

const localDraftSchema = z.object({
  /** The rendered version the draft edits: a draft of an older version is not brought back over a newer one. */
  version: z.number(),
  draft: z.object({
    title: z.string(),
    voice: z.string(),
    captionStyle: captionStyleSchema,
    enableCaptions: z.boolean(),
    enableZoom: z.boolean(),
    music: z.nullable(z.object({ uploadId: z.string(), volumePercent: z.number(), name: z.optional(z.string()) })),
    scenes: z.array(z.looseObject({ key: z.string(), narration: z.string(), imagePrompt: z.string() })).check(z.minLength(1)),
  }),
});

/** Keeps the draft on this device until the server has it. A picture's local preview cannot outlive the page, so it is not kept. */
export function writeLocalDraft(storage: KeyValueStorage, videoId: string, version: number, draft: StoryboardDraft): void {
  const scenes = draft.scenes.map(({ previewUrl: _preview, ...scene }) => scene);
  try {
    storage.setItem(keyFor(videoId), JSON.stringify({ version, draft: { ...draft, scenes } }));
  } catch {
    // A full storage keeps the draft in the page only; the indicator still says it is not saved.
  }
}

/** The draft kept for this video's `version`, or null (none, another version's, or unreadable). */
export function readLocalDraft(storage: KeyValueStorage, videoId: string, version: number): StoryboardDraft | null {
  const raw = storage.getItem(keyFor(videoId));
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  const kept = localDraftSchema.safeParse(parsed);
  if (!kept.success || kept.data.version !== version) return null;
  return (parsed as { draft: StoryboardDraft }).draft;
}

export function clearLocalDraft(storage: KeyValueStorage, videoId: string): void {
  storage.removeItem(keyFor(videoId));
}
