import {
  countNarrationWords,
  narrationBudgetError,
  narrationWordLimit,
  STORYBOARD_MAX_SCENES,
  storyboardUpdateFrom,
  type Attribution,
  type CaptionStyle,
  type Storyboard,
  type StoryboardUpdateBody,
} from '@reelsmith/contracts';

/** One scene card as the creator edits it. */
export interface DraftScene {
  /** Stable React key (the server id, or a local one for a new scene). */
  key: string;
  /** Absent for a scene added since the last save. */
  id?: string;
  narration: string;
  imagePrompt: string;
  /** The last render's picture, or null. */
  imageUrl: string | null;
  /** What the last render's picture shows ("bicycle"), when its provider said. */
  subject?: string;
  /** The last render's picture's credit when it came from Wikimedia Commons; read-only. */
  attribution?: Attribution;
  /** A local preview of a picture just uploaded. */
  previewUrl?: string;
  startSeconds: number | null;
  durationSeconds: number | null;
  imageUploadId?: string;
  regenerateImage?: boolean;
  /** The source's sentences this scene tells (videos made from a script or an article); read-only. */
  sourceSentences?: string[];
  /** The narration as the storyboard opened and whether the server already counted it as rewritten from its source. */
  loaded?: { narration: string; edited: boolean };
}

export interface StoryboardDraft {
  title: string;
  voice: string;
  captionStyle: CaptionStyle;
  enableCaptions: boolean;
  enableZoom: boolean;
  music: { uploadId: string; volumePercent: number; name?: string } | null;
  scenes: DraftScene[];
}

let localKeys = 0;
// The page-load time keeps keys unique against those of a draft kept from an earlier visit.
const newKey = () => `new-${Date.now().toString(36)}-${++localKeys}`;

export function draftFrom(board: Storyboard): StoryboardDraft {
  return {
    title: board.title,
    voice: board.voice,
    captionStyle: board.captionStyle,
    enableCaptions: board.enableCaptions,
    enableZoom: board.enableZoom,
    music: board.music ? { ...board.music } : null,
    scenes: board.scenes.map((scene) => ({
      key: scene.id,
      id: scene.id,
      narration: scene.narration,
      imagePrompt: scene.imagePrompt,
      imageUrl: scene.imageUrl,
      ...(scene.subject ? { subject: scene.subject } : {}),
      ...(scene.attribution ? { attribution: scene.attribution } : {}),
      startSeconds: scene.startSeconds,
      durationSeconds: scene.durationSeconds,
      ...(scene.imageUploadId ? { imageUploadId: scene.imageUploadId } : {}),
      ...(scene.sourceSentences?.length
        ? { sourceSentences: scene.sourceSentences, loaded: { narration: scene.narration, edited: scene.narrationEdited ?? false } }
        : {}),
    })),
  };
}

/** True when a scene told from its source no longer has the narration first written from it: saved so, or typed since. */
export function narrationEdited(scene: Pick<DraftScene, 'narration' | 'loaded'>): boolean {
  if (!scene.loaded) return false;
  return scene.loaded.edited || scene.narration.trim() !== scene.loaded.narration.trim();
}

/** The draft as the update route takes it: scenes added since the last save go without an id. */
export function toUpdateBody(draft: StoryboardDraft): StoryboardUpdateBody {
  return storyboardUpdateFrom(draft);
}

export function updateScene(draft: StoryboardDraft, index: number, change: Partial<DraftScene>): StoryboardDraft {
  return { ...draft, scenes: draft.scenes.map((scene, i) => (i === index ? { ...scene, ...change } : scene)) };
}

export function moveScene(draft: StoryboardDraft, index: number, delta: -1 | 1): StoryboardDraft {
  const target = index + delta;
  if (target < 0 || target >= draft.scenes.length) return draft;
  const scenes = [...draft.scenes];
  [scenes[index], scenes[target]] = [scenes[target]!, scenes[index]!];
  return { ...draft, scenes };
}

export function deleteScene(draft: StoryboardDraft, index: number): StoryboardDraft {
  if (draft.scenes.length <= 1) return draft;
  return { ...draft, scenes: draft.scenes.filter((_, i) => i !== index) };
}

export function addSceneAfter(draft: StoryboardDraft, index: number): StoryboardDraft {
  if (draft.scenes.length >= STORYBOARD_MAX_SCENES) return draft;
  const scenes = [...draft.scenes];
  const prompt = draft.scenes[index]?.imagePrompt ?? '';
  scenes.splice(index + 1, 0, {
    key: newKey(),
    narration: '',
    imagePrompt: prompt,
    imageUrl: null,
    startSeconds: null,
    durationSeconds: null,
  });
  return { ...draft, scenes };
}

/** The narration budget as the editor shows it live (the server checks the same rule). */
export function budgetMessage(draft: StoryboardDraft, durationSeconds: number): string | null {
  return narrationBudgetError(draft.scenes, durationSeconds);
}

/** How many words the draft's narration is over its duration's budget (0 when it fits). */
export function budgetExcess(draft: Pick<StoryboardDraft, 'scenes'>, durationSeconds: number): number {
  const words = draft.scenes.reduce((sum, scene) => sum + countNarrationWords(scene.narration), 0);
  return Math.max(0, words - narrationWordLimit(durationSeconds));
}

export const formatSeconds = (seconds: number | null): string => (seconds === null ? '—' : `${seconds.toFixed(1)} s`);

/** The draft with server ids given to the scenes (by key) that were new when they were saved. */
export function adoptSceneIds(draft: StoryboardDraft, ids: ReadonlyMap<string, string | undefined>): StoryboardDraft {
  if (!draft.scenes.some((scene) => !scene.id && ids.get(scene.key))) return draft;
  return {
    ...draft,
    scenes: draft.scenes.map((scene) => (scene.id || !ids.get(scene.key) ? scene : { ...scene, id: ids.get(scene.key)! })),
  };
}

/** The draft with the ids of scenes `known` lacks dropped, so they are saved as new scenes rather than refused. */
export function keepKnownSceneIds(draft: StoryboardDraft, known: ReadonlySet<string>): StoryboardDraft {
  if (draft.scenes.every((scene) => !scene.id || known.has(scene.id))) return draft;
  return {
    ...draft,
    scenes: draft.scenes.map(({ id, ...scene }) => (id && known.has(id) ? { ...scene, id } : scene)),
  };
}

/** Where each scene sits in the rendered video: its own start, else the end of the one before (new scenes have none). */
export function sceneSpans(
  scenes: ReadonlyArray<Pick<DraftScene, 'startSeconds' | 'durationSeconds'>>,
): Array<{ start: number; end: number } | null> {
  let cursor: number | null = 0;
  return scenes.map((scene) => {
    const start = scene.startSeconds ?? cursor;
    if (start === null || scene.durationSeconds === null) {
      cursor = null;
      return null;
    }
    cursor = start + scene.durationSeconds;
    return { start, end: cursor };
  });
}

/** The index of the scene playing at `seconds`, or -1. */
export function sceneAt(spans: ReadonlyArray<{ start: number; end: number } | null>, seconds: number): number {
  return spans.findIndex((span) => span !== null && seconds >= span.start && seconds < span.end);
}
