import type { Attribution, CaptionStyle, GenerationParams, Storyboard, StoryboardMusic } from '@reelsmith/contracts';
import type { storyboardUpdateBodySchema } from '@reelsmith/contracts';
import type { z } from 'zod';
import { commonsFileOf, type GeneratedScene } from '@reelsmith/pipeline';
import { randomBytes, randomInt } from 'node:crypto';

/** What a scene looked like in the last render, so the storyboard can say what changed since. */
export interface RenderedScene {
  narration: string;
  imagePrompt: string;
  imageSeed: number;
  imageUploadId?: string;
  position: number;
  imageUrl: string;
  startSeconds: number;
  durationSeconds: number;
  /** What the picture shows, when its provider said. */
  subject?: string;
  /** The picture's credit, when it is a free-licensed one found for the video's article (Commons). */
  attribution?: Attribution;
}

export interface DocumentScene {
  id: string;
  narration: string;
  imagePrompt: string;
  /** Seeds the generated picture; "regenerate" draws a new one. */
  imageSeed: number;
  imageUploadId?: string;
  rendered?: RenderedScene;
  /** The source sentences the scene was written from (videos made from a script or an article). */
  sourceSentences?: string[];
  /** The narration first written from `sourceSentences`, so a rewritten one can be told apart (absent before it was kept). */
  sourceNarration?: string;
  /**
   * What this scene's earlier pictures showed: "regenerate" asks for a picture of something else.
   * A Commons picture is named by its file ("File:….jpg"), so the next one of the same search comes.
   */
  shownSubjects?: string[];
}

export interface VideoSettings {
  title: string;
  voice: string;
  captionStyle: CaptionStyle;
  enableCaptions: boolean;
  enableZoom: boolean;
  music?: StoryboardMusic;
}

/** The stored storyboard (video_storyboards.document): the creator's current edit and what was last rendered. */
export interface StoryboardDocument extends VideoSettings {
  scenes: DocumentScene[];
  rendered?: VideoSettings & { sceneIds: string[] };
}

export type StoryboardEdit = z.output<typeof storyboardUpdateBodySchema>;

export const newSceneId = (): string => randomBytes(6).toString('hex');
/** A fresh picture seed, far from the written story's 0…11 so a variation never repeats an old scene's picture. */
export const newImageSeed = (): number => randomInt(1_000, 2_000_000_000);

const settingsOf = (document: VideoSettings): VideoSettings => ({
  title: document.title,
  voice: document.voice,
  captionStyle: document.captionStyle,
  enableCaptions: document.enableCaptions,
  enableZoom: document.enableZoom,
  ...(document.music ? { music: { ...document.music } } : {}),
});

/** Records a finished render: every scene is now as rendered, with its picture's URL and its timing. */
export function markRendered(
  document: StoryboardDocument,
  scenes: readonly GeneratedScene[],
  imageUrls: readonly string[],
): StoryboardDocument {
  return {
    ...document,
    scenes: document.scenes.map((scene, position) => {
      const made = scenes[position];
      if (!made) return scene;
      return {
        ...scene,
        rendered: {
          narration: scene.narration,
          imagePrompt: scene.imagePrompt,
          imageSeed: scene.imageSeed,
          ...(scene.imageUploadId ? { imageUploadId: scene.imageUploadId } : {}),
          position,
          imageUrl: imageUrls[position] ?? '',
          startSeconds: made.startSeconds,
          durationSeconds: made.durationSeconds,
          ...(made.subject ? { subject: made.subject } : {}),
          ...(made.attribution ? { attribution: made.attribution } : {}),
        },
      };
    }),
    rendered: { ...settingsOf(document), sceneIds: document.scenes.map((scene) => scene.id) },
  };
}

/** The storyboard of a first render, made from what the pipeline wrote. */
export function documentFromFirstRender(
  params: GenerationParams,
  title: string,
  scenes: readonly GeneratedScene[],
  imageUrls: readonly string[],
): StoryboardDocument {
  const document: StoryboardDocument = {
    title,
    voice: params.voice,
    captionStyle: params.captionStyle,
    enableCaptions: params.enableCaptions,
    enableZoom: params.enableZoom,
    scenes: scenes.map((scene) => ({
      id: newSceneId(),
      narration: scene.narration,
      imagePrompt: scene.imagePrompt,
      imageSeed: scene.imageSeed,
      ...(scene.sourceSentences ? { sourceSentences: [...scene.sourceSentences], sourceNarration: scene.narration } : {}),
    })),
  };
  return markRendered(document, scenes, imageUrls);
}

function sceneChanged(scene: DocumentScene, position: number): boolean {
  const was = scene.rendered;
  if (!was) return true;
  return (
    was.narration !== scene.narration ||
    was.imagePrompt !== scene.imagePrompt ||
    was.imageSeed !== scene.imageSeed ||
    (was.imageUploadId ?? null) !== (scene.imageUploadId ?? null) ||
    was.position !== position
  );
}

export function documentChanged(document: StoryboardDocument): boolean {
  const rendered = document.rendered;
  if (!rendered) return true;
  if (JSON.stringify(settingsOf(rendered)) !== JSON.stringify(settingsOf(document))) return true;
  if (rendered.sceneIds.join(',') !== document.scenes.map((scene) => scene.id).join(',')) return true;
  return document.scenes.some(sceneChanged);
}

export function toStoryboardView(
  document: StoryboardDocument,
  video: { videoId: string; version: number; durationSeconds: number; rendersLeft: number; revision: string },
): Storyboard {
  return {
    videoId: video.videoId,
    version: video.version,
    ...settingsOf(document),
    scenes: document.scenes.map((scene, position) => {
      const changed = sceneChanged(scene, position);
      // The old picture stays as the thumbnail while only the words changed; a new picture has none until rendered.
      const samePicture =
        scene.rendered !== undefined &&
        scene.rendered.imagePrompt === scene.imagePrompt &&
        scene.rendered.imageSeed === scene.imageSeed &&
        (scene.rendered.imageUploadId ?? null) === (scene.imageUploadId ?? null);
      return {
        id: scene.id,
        narration: scene.narration,
        imagePrompt: scene.imagePrompt,
        imageUrl: samePicture ? scene.rendered!.imageUrl : null,
        startSeconds: changed ? null : scene.rendered!.startSeconds,
        durationSeconds: changed ? null : scene.rendered!.durationSeconds,
        ...(scene.imageUploadId ? { imageUploadId: scene.imageUploadId } : {}),
        ...(samePicture && scene.rendered!.subject ? { subject: scene.rendered!.subject } : {}),
        ...(samePicture && scene.rendered!.attribution ? { attribution: scene.rendered!.attribution } : {}),
        changed,
        ...(scene.sourceSentences ? { sourceSentences: scene.sourceSentences } : {}),
        ...(scene.sourceSentences && scene.sourceNarration !== undefined
          ? { narrationEdited: scene.narration !== scene.sourceNarration }
          : {}),
      };
    }),
    durationSeconds: video.durationSeconds,
    rendersLeft: video.rendersLeft,
    changed: documentChanged(document),
    revision: video.revision,
  };
}

export class UnknownSceneError extends Error {
  constructor(readonly index: number) {
    super(`Scene ${index + 1} is not part of this storyboard. Reload the page and make the change again.`);
  }
}

/** The creator's edit applied to the stored storyboard (validated already; upload ids checked by the caller). */
export function applyEdit(document: StoryboardDocument, edit: StoryboardEdit): StoryboardDocument {
  const existing = new Map(document.scenes.map((scene) => [scene.id, scene]));
  const used = new Set<string>();
  const scenes = edit.scenes.map((change, index): DocumentScene => {
    const before = change.id === undefined ? undefined : existing.get(change.id);
    if (change.id !== undefined && (!before || used.has(change.id))) throw new UnknownSceneError(index);
    if (change.id !== undefined) used.add(change.id);
    const imagePrompt = change.imagePrompt.trim();
    // A regenerated picture shows the next best subject: the ones shown so far for this prompt are passed over.
    const shown = before && before.imagePrompt === imagePrompt ? (before.shownSubjects ?? []) : [];
    const rendered = before?.rendered?.imagePrompt === imagePrompt ? before.rendered : undefined;
    // A Commons picture is passed over by its file, not its subject: the same search then offers its next picture.
    const commonsFile = rendered?.attribution ? commonsFileOf(rendered.attribution) : null;
    const lastShown = commonsFile ? `File:${commonsFile.replace(/^File:/i, '')}` : rendered?.subject;
    const shownSubjects = change.regenerateImage && lastShown && !shown.includes(lastShown) ? [...shown, lastShown] : shown;
    return {
      id: before?.id ?? newSceneId(),
      narration: change.narration.trim(),
      imagePrompt,
      // "Regenerate" draws a new seed; a new prompt alone already paints a new picture (the prompt is part of its key).
      imageSeed: before && !change.regenerateImage ? before.imageSeed : newImageSeed(),
      ...(change.imageUploadId && !change.regenerateImage ? { imageUploadId: change.imageUploadId } : {}),
      ...(before?.rendered ? { rendered: before.rendered } : {}),
      // An edited scene still comes from the sentences it was written from; a new scene comes from none.
      ...(before?.sourceSentences ? { sourceSentences: before.sourceSentences } : {}),
      ...(before?.sourceNarration !== undefined ? { sourceNarration: before.sourceNarration } : {}),
      ...(shownSubjects.length > 0 ? { shownSubjects } : {}),
    };
  });
  return {
    title: edit.title,
    voice: edit.voice,
    captionStyle: edit.captionStyle,
    enableCaptions: edit.enableCaptions,
    enableZoom: edit.enableZoom,
    ...(edit.music ? { music: edit.music } : {}),
    scenes,
    ...(document.rendered ? { rendered: document.rendered } : {}),
  };
}
