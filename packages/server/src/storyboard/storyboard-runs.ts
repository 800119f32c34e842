import type { GenerationParams, RenderStats, VideoResult } from '@reelsmith/contracts';
import type { GenerationOutput, RenderBrand, StoryboardInput } from '@reelsmith/pipeline';
import { GenerationError } from '@reelsmith/pipeline';
import type { Kysely } from 'kysely';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { brandForJob } from '../brand/brand-store.js';
import type { Database, VideoJobRow } from '../db/schema.js';
import { OUTPUT_URL_PREFIX, outputKey } from '../output/output-files.js';
import { StorageMissingError, type ObjectStorage } from '../storage/object-storage.js';
import { documentFromFirstRender, markRendered } from './storyboard-document.js';
import { findStoryboard, insertVersion, saveStoryboard } from './storyboard-store.js';
import { findUserUpload } from '../uploads/upload-store.js';
import type { UploadFiles } from '../uploads/upload-files.js';

export interface StoryboardRunsOptions {
  db: Kysely<Database>;
  /** DATA_DIR/artefacts: one folder per video, kept across versions until the video is deleted. */
  artefactsDir: string;
  /** Where versions' files are published (local DATA_DIR/output or the S3 bucket). */
  storage: ObjectStorage;
  uploads: UploadFiles;
}

export interface PreparedRun {
  params: GenerationParams;
  artefactDir: string;
  storyboard?: StoryboardInput;
  music?: { path: string; volumePercent: number };
  brand?: RenderBrand;
}

/**
 * The storyboard side of running a job: a render of an edited storyboard runs the creator's scenes
 * (their words, seeds and uploaded pictures) with the video's settings, and every finished render
 * becomes a version with the storyboard updated to match.
 */
export class StoryboardRuns {
  constructor(private readonly options: StoryboardRunsOptions) {}

  artefactDirFor(videoId: string): string {
    return join(this.options.artefactsDir, videoId);
  }

  async removeArtefacts(videoId: string): Promise<void> {
    await rm(this.artefactDirFor(videoId), { recursive: true, force: true });
  }

  async prepare(job: VideoJobRow, params: GenerationParams): Promise<PreparedRun> {
    const artefactDir = this.artefactDirFor(job.id);
    const document = job.version > 1 ? await findStoryboard(this.options.db, job.id) : undefined;
    const uploadPath = async (uploadId: string, what: string) => {
      const upload = await findUserUpload(this.options.db, job.user_id, uploadId);
      if (!upload)
        throw new GenerationError('setup', `The ${what} uploaded for this video is gone. Upload it again in the storyboard.`, false);
      let path: string;
      try {
        path = await this.options.uploads.copyFor(job.user_id, upload.file_name, join(artefactDir, 'uploads'));
      } catch (error) {
        if (error instanceof StorageMissingError)
          throw new GenerationError('setup', `The ${what} uploaded for this video is gone. Upload it again in the storyboard.`, false);
        throw error;
      }
      return { path, contentHash: upload.content_hash };
    };
    const kit = await brandForJob(this.options.db, job);
    const brand: RenderBrand | undefined = kit
      ? {
          accentColor: kit.accentColor,
          fontId: kit.fontId,
          logo: kit.logoUploadId
            ? {
                path: (await uploadPath(kit.logoUploadId, 'brand logo')).path,
                position: kit.logoPosition,
                scale: kit.logoScale,
                opacity: kit.logoOpacity,
              }
            : null,
          endCard: kit.endCard,
        }
      : undefined;
    if (!document) return { params, artefactDir, ...(brand ? { brand } : {}) };
    const scenes: StoryboardInput['scenes'] = [];
    for (const [index, scene] of document.scenes.entries()) {
      scenes.push({
        narration: scene.narration,
        imagePrompt: scene.imagePrompt,
        imageSeed: scene.imageSeed,
        ...(scene.imageUploadId ? { uploadedImage: await uploadPath(scene.imageUploadId, `picture of scene ${index + 1}`) } : {}),
        ...(scene.shownSubjects?.length ? { avoidSubjects: scene.shownSubjects } : {}),
      });
    }
    return {
      params: {
        ...params,
        voice: document.voice,
        captionStyle: document.captionStyle,
        enableCaptions: document.enableCaptions,
        enableZoom: document.enableZoom,
      },
      artefactDir,
      storyboard: { title: document.title, scenes },
      ...(document.music
        ? { music: { path: (await uploadPath(document.music.uploadId, 'music')).path, volumePercent: document.music.volumePercent } }
        : {}),
      ...(brand ? { brand } : {}),
    };
  }

  /** Copies each scene's picture beside the version's video (its storyboard thumbnail); returns their URLs. */
  async publishScenePictures(output: GenerationOutput, token: string): Promise<string[]> {
    const urls: string[] = [];
    for (const [index, scene] of (output.scenes ?? []).entries()) {
      const name = `scene-${index + 1}.jpg`;
      // put() takes ownership of the file it is given; the artefact stays for the next version's reuse.
      const copy = `${scene.imagePath}.${token}.publish`;
      await copyFile(scene.imagePath, copy);
      await this.options.storage.put(outputKey(token, name), copy, { contentType: 'image/jpeg' }).finally(() => rm(copy, { force: true }));
      urls.push(`${OUTPUT_URL_PREFIX}/${token}/${name}`);
    }
    return urls;
  }

  /** In the completion's transaction: the version row and the storyboard as rendered. */
  async record(
    db: Kysely<Database>,
    job: VideoJobRow,
    params: GenerationParams,
    output: GenerationOutput,
    published: { token: string; sizeBytes: number },
    result: VideoResult,
    imageUrls: readonly string[],
    renderStats: RenderStats,
  ): Promise<void> {
    await insertVersion(db, {
      videoId: job.id,
      version: job.version,
      outputToken: published.token,
      result,
      sizeBytes: published.sizeBytes,
      renderStats,
    });
    const scenes = output.scenes;
    if (!scenes) return;
    const before = await findStoryboard(db, job.id);
    const document =
      before && job.version > 1
        ? markRendered(before, scenes, imageUrls)
        : documentFromFirstRender(params, output.title, scenes, imageUrls);
    await saveStoryboard(db, job.id, job.user_id, document);
  }
}
