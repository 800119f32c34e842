import { join } from 'node:path';
import type { ArtworkCredit, Attribution, ImageCredit } from '@reelsmith/contracts';
import type { ScenePicture } from '../../assembly/assemble-video.js';
import { throwIfAborted } from '../../errors.js';
import { callProvider } from '../../providers/provider-retry.js';
import type { ImageRequest, ImageResult } from '../../providers/types.js';
import { hashInputs, readArtefact, readCheckpoint, writeCheckpoint, type Checkpointed } from '../checkpoint.js';
import { findScenePicture, findScenePictures, markPictureUsed, type ResearchedArticle, type ScenePictureNeed } from '../research.js';
import type { RunContext } from '../run-context.js';
import type { SetupOutput } from './setup-step.js';
import type { RunScene, RunStory } from './story-step.js';

export interface ImagesOutput {
  imagePaths: string[];
  /** Each scene's stock video clip, where it has one (absent in checkpoints written before clips). */
  videoPaths?: (string | null)[];
  /** Photographers of the stock pictures among them (absent in checkpoints written before credits). */
  credits?: ImageCredit[];
  /** What each scene's picture shows, where its provider said (absent in checkpoints written before subjects). */
  subjects?: (string | null)[];
  /** Artwork sets the pictures draw on, once each. */
  artwork?: ArtworkCredit[];
  /** Each scene's Commons picture credit, where it has one (researched videos). */
  attributions?: (Attribution | null)[];
}

/** One line when research gives up on a scene's picture: the operator sees why a researched video shows painted art. */
function logPictureGiveUp(note: { sceneIndex: number; what: string; reason: string }): void {
  console.info(`research: scene ${note.sceneIndex + 1} gets no Commons picture (${note.what}: ${note.reason})`);
}

/** Images: each scene's picture painted or found (or its earlier one reused), or the creator's upload. */
export function imagesStep(
  ctx: RunContext,
  story: Checkpointed<RunStory>,
  setup: Checkpointed<SetupOutput>,
  article: ResearchedArticle | null,
  /** Told of each picture as soon as it is made (or found), in scene order. */
  onPicture?: (index: number, picture: ScenePicture) => void,
): Promise<Checkpointed<ImagesOutput>> {
  const { params, providers, signal, options, progress, artefactDir, retryDelays, step } = ctx;
  const sceneCount = story.output.scenes.length;
  // Commons pictures for a researched video; without research the configured provider paints as before.
  const commons = article && providers.research ? { article, research: providers.research } : null;
  return step<ImagesOutput>(
    'images',
    {
      story: story.hash,
      images: providers.images.name,
      visualStyle: params.visualStyle,
      resolution: params.resolution,
      artefactDir,
      ...(commons ? { commons: commons.article.title } : {}),
    },
    async () => {
      const imagePaths: string[] = [];
      const videoPaths: (string | null)[] = [];
      const credits: ImageCredit[] = [];
      const subjects: (string | null)[] = [];
      const artwork: ArtworkCredit[] = [];
      const attributions: (Attribution | null)[] = [];
      const usedFiles = new Set<string>();
      const imageRequestFor = (scene: RunScene, key: string): ImageRequest => ({
        prompt: scene.imagePrompt,
        visualStyle: params.visualStyle,
        width: setup.output.width,
        height: setup.output.height,
        sceneIndex: scene.imageSeed,
        outputPath: join(artefactDir, 'images', `${key}.jpg`),
        topic: params.topic,
        narration: scene.narration,
        language: params.language,
        ...(scene.avoidSubjects?.length ? { avoidSubjects: scene.avoidSubjects } : {}),
      });
      const keyOf = (scene: RunScene) =>
        hashInputs({
          prompt: scene.imagePrompt,
          seed: scene.imageSeed,
          style: params.visualStyle,
          size: [setup.output.width, setup.output.height],
          provider: providers.images.name,
          ...(scene.avoidSubjects?.length ? { avoidSubjects: scene.avoidSubjects } : {}),
          ...(commons ? { commons: commons.article.title } : {}),
        });
      // The Commons pictures every kept scene shows, later ones included, are taken: a regenerated
      // scene moves on to a picture no other scene of the video shows.
      // The others are looked up on Commons all at once, each within its own time (findScenePictures).
      const needs: ScenePictureNeed[] = [];
      if (commons) {
        for (const [index, scene] of story.output.scenes.entries()) {
          if (scene.uploadedImage) continue;
          const key = keyOf(scene);
          const kept = readCheckpoint<ImageResult>(join(artefactDir, 'images', `${key}.json`), key);
          if (kept?.attribution) markPictureUsed(usedFiles, kept.attribution);
          if (!kept) needs.push({ index, request: imageRequestFor(scene, key) });
        }
      }
      const onGiveUp = (sceneIndex: number, what: string, error: unknown) =>
        (options.onPictureGiveUp ?? logPictureGiveUp)({ sceneIndex, what, reason: error instanceof Error ? error.message : String(error) });
      const commonsPictures = commons
        ? findScenePictures(needs, commons.article, commons.research, usedFiles, { ...(signal ? { signal } : {}), onGiveUp })
        : null;
      for (const [index, scene] of story.output.scenes.entries()) {
        throwIfAborted(signal);
        if (scene.uploadedImage) {
          // The creator's picture was decoded and re-encoded at upload; it is used as it is.
          options.onArtefact?.({ kind: 'image', sceneIndex: index, reused: true });
          imagePaths.push(scene.uploadedImage.path);
          videoPaths.push(null);
          subjects.push(null);
          attributions.push(null);
          progress.report('images', ((index + 1) / sceneCount) * 100);
          continue;
        }
        const key = keyOf(scene);
        const previousSubject = subjects.at(-1);
        const manifest = join(artefactDir, 'images', `${key}.json`);
        let done = readArtefact<ImageResult>(manifest, key, (output) => [
          output.imagePath,
          ...(output.videoPath ? [output.videoPath] : []),
        ]);
        options.onArtefact?.({ kind: 'image', sceneIndex: index, reused: done !== null });
        if (!done) {
          const request = {
            ...imageRequestFor(scene, key),
            avoidSourceIds: credits.map((credit) => credit.sourceId),
            ...(previousSubject ? { previousSubject } : {}),
          };
          const found = commons
            ? await (commonsPictures?.get(index) ??
                findScenePicture(request, commons.article, commons.research, usedFiles, { ...(signal ? { signal } : {}), onGiveUp }))
            : null;
          done = found ?? (await callProvider(() => providers.images.generateImage(request, signal), signal, retryDelays));
          writeCheckpoint(manifest, key, done);
        } else if (done.attribution) {
          markPictureUsed(usedFiles, done.attribution);
        }
        imagePaths.push(done.imagePath);
        videoPaths.push(done.videoPath ?? null);
        onPicture?.(index, { imagePath: done.imagePath, ...(done.videoPath ? { videoPath: done.videoPath } : {}) });
        if (done.credit) credits.push(done.credit);
        subjects.push(done.subject ?? null);
        attributions.push(done.attribution ?? null);
        if (done.artwork && !artwork.some((credit) => credit.name === done.artwork!.name)) artwork.push(done.artwork);
        progress.report('images', ((index + 1) / sceneCount) * 100);
      }
      return {
        imagePaths,
        credits,
        subjects,
        ...(artwork.length ? { artwork } : {}),
        ...(videoPaths.some(Boolean) ? { videoPaths } : {}),
        ...(attributions.some(Boolean) ? { attributions } : {}),
      };
    },
  );
}
