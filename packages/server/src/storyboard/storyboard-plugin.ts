import multipart from '@fastify/multipart';
import {
  API,
  isActiveJobStatus,
  MAX_RERENDERS,
  MESSAGES,
  MUSIC_MARGIN_SECONDS,
  narrationBudgetError,
  STORYBOARD_CONFLICT_MESSAGE,
  STORYBOARD_MESSAGES as M,
  STORYBOARD_WRITE_WINDOW_SECONDS,
  STORYBOARD_WRITES_PER_WINDOW,
  UPLOAD_AUDIO_MAX_BYTES,
  type RenderStats,
  type Storyboard,
  type VideoVersion,
} from '@reelsmith/contracts';
import { resolveFfmpegBinaries } from '@reelsmith/pipeline';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply } from 'fastify';
import type { VideoJobRow } from '../db/schema.js';
import { badRequest, conflict, HttpError, notFound, statusText } from '../errors.js';
import { perUserPerMinute } from '../http/rate-limit-keys.js';
import { registerRoute } from '../http/register-route.js';
import { findUserJob, queueRerender } from '../video-jobs/video-job-repository.js';
import { parseParams, parseResult } from '../video-jobs/video-job-view.js';
import { applyEdit, toStoryboardView, UnknownSceneError, type StoryboardDocument } from './storyboard-document.js';
import {
  findStoryboard,
  findStoryboardRecord,
  listVersions,
  parseRenderStats,
  replaceStoryboardIf,
  revisionOf,
  saveStoryboard,
  type StoryboardRecord,
} from './storyboard-store.js';
import { ifMatchAllows } from './if-match.js';
import { findUserUpload, insertUpload } from '../uploads/upload-store.js';
import { UploadFiles } from '../uploads/upload-files.js';
import { makeUploadScratch, removeLeftUploadScratch, removeUploadScratch } from '../uploads/upload-scratch.js';
import { prepareUpload, type MediaTools } from './upload-media.js';
import { DecodeSlots } from './decode-slots.js';
import { removeUnusedUploads, UPLOAD_RETENTION_MS, UPLOAD_SWEEP_INTERVAL_MS } from '../uploads/upload-retention.js';

const UPLOADS_PER_MINUTE = 30;

const renderStatsOf = (text: string | null): { renderStats?: RenderStats } => {
  const renderStats = parseRenderStats(text);
  return renderStats ? { renderStats } : {};
};
const RENDERS_PER_MINUTE = 10;

/** The version the creator sees as latest: while a re-render runs, the row already names the next one. */
export function latestVersion(row: Pick<VideoJobRow, 'status' | 'version'>): number {
  return isActiveJobStatus(row.status) && row.version > 1 ? row.version - 1 : row.version;
}

/**
 * Storyboards: read and edit a finished video's scenes, upload pictures and music, render a
 * new version through the same queue and socket events as a first render, and list the versions.
 * Another user's video or upload is a 404, exactly like a missing one.
 */
export const storyboardPlugin = fp(
  async (app) => {
    const uploadFiles = new UploadFiles(app.storage);
    // Each decode is an ffmpeg that may fill a core: at most one per core, one per user at a time.
    const decodeSlots = new DecodeSlots({ total: Math.max(1, availableParallelism()), perUser: 1, waitingPerUser: 3 });
    let sweeper: NodeJS.Timeout | null = null;
    app.addHook('onReady', async () => {
      const sweep = () =>
        void removeUnusedUploads(app.db, uploadFiles, new Date(Date.now() - UPLOAD_RETENTION_MS)).catch((error: unknown) =>
          app.log.warn({ err: error }, 'could not remove unused uploads'),
        );
      sweep();
      sweeper = setInterval(sweep, UPLOAD_SWEEP_INTERVAL_MS);
      sweeper.unref();
    });
    app.addHook('preClose', async () => {
      if (sweeper) clearInterval(sweeper);
    });
    let tools: MediaTools | undefined;
    const mediaTools = (): MediaTools => {
      if (!tools) {
        const binaries = resolveFfmpegBinaries();
        tools = { ffmpegPath: binaries.ffmpegPath, ffprobePath: binaries.ffprobePath ?? 'ffprobe' };
      }
      return tools;
    };

    async function ownVideo(userId: string, videoId: string): Promise<VideoJobRow> {
      const row = await findUserJob(app.db, userId, videoId);
      if (!row) throw notFound(MESSAGES.notFound);
      return row;
    }

    const missingStoryboard = (row: VideoJobRow) =>
      conflict(row.status === 'completed' ? M.noStoryboard : isActiveJobStatus(row.status) ? M.notReady : M.notFinished);

    async function storyboardOf(row: VideoJobRow): Promise<StoryboardDocument> {
      const document = await findStoryboard(app.db, row.id);
      if (!document) throw missingStoryboard(row);
      return document;
    }

    async function recordOf(row: VideoJobRow): Promise<StoryboardRecord> {
      const record = await findStoryboardRecord(app.db, row.id);
      if (!record) throw missingStoryboard(row);
      return record;
    }

    const view = (row: VideoJobRow, record: StoryboardRecord): Storyboard =>
      toStoryboardView(record.document, {
        videoId: row.id,
        version: latestVersion(row),
        durationSeconds: parseParams(row.params).duration,
        rendersLeft: Math.max(0, MAX_RERENDERS + 1 - row.version),
        revision: record.revision,
      });

    /** The storyboard as it is now, with its ETag, answering a PUT whose If-Match names an older one. */
    const preconditionFailed = (reply: FastifyReply, row: VideoJobRow, record: StoryboardRecord): FastifyReply =>
      reply
        .code(412)
        .header('etag', `"${record.revision}"`)
        .send({ statusCode: 412 as const, error: statusText(412), message: STORYBOARD_CONFLICT_MESSAGE, storyboard: view(row, record) });

    registerRoute(app, API.storyboard, async (request, reply) => {
      const row = await ownVideo(request.user.id, request.params.id);
      const record = await recordOf(row);
      // no-cache: a browser must ask again (If-None-Match is not needed) rather than show another tab's old copy.
      void reply.header('etag', `"${record.revision}"`).header('cache-control', 'private, no-cache');
      return view(row, record);
    });

    // Autosave sends at most one write a second; a client looping on PUT is stopped per video, not per account.
    const limitWrites = app.createRateLimiter({
      name: 'storyboard-write',
      max: STORYBOARD_WRITES_PER_WINDOW,
      timeWindowMs: STORYBOARD_WRITE_WINDOW_SECONDS * 1000,
      key: (request) => {
        const params = request.params as { id?: unknown } | undefined;
        return `${request.user?.id ?? request.ip}:${typeof params?.id === 'string' ? params.id : ''}`;
      },
      message: `This storyboard was saved more than ${STORYBOARD_WRITES_PER_WINDOW} times in ${STORYBOARD_WRITE_WINDOW_SECONDS} s. Wait a few seconds and save again.`,
    });

    registerRoute(
      app,
      API.updateStoryboard,
      async (request, reply) => {
        const userId = request.user.id;
        const row = await ownVideo(userId, request.params.id);
        if (isActiveJobStatus(row.status)) throw conflict(M.renderRunning);
        const record = await recordOf(row);
        const ifMatch = request.headers['if-match'];
        if (ifMatch !== undefined && !ifMatchAllows(ifMatch, record.revision)) return preconditionFailed(reply, row, record);
        const document = record.document;
        const edit = request.body;
        const budget = narrationBudgetError(edit.scenes, parseParams(row.params).duration);
        if (budget) throw badRequest(budget, 'scenes');
        for (const [index, scene] of edit.scenes.entries()) {
          if (!scene.imageUploadId || scene.regenerateImage) continue;
          const upload = await findUserUpload(app.db, userId, scene.imageUploadId);
          if (!upload) throw new HttpError(404, M.unknownUpload, `scenes.${index}.imageUploadId`);
          if (upload.kind !== 'image') throw badRequest(M.uploadNotImage, `scenes.${index}.imageUploadId`);
        }
        if (edit.music) {
          const upload = await findUserUpload(app.db, userId, edit.music.uploadId);
          if (!upload) throw new HttpError(404, M.unknownUpload, 'music.uploadId');
          if (upload.kind !== 'audio') throw badRequest(M.uploadNotAudio, 'music.uploadId');
          const videoSeconds = parseParams(row.params).duration;
          const seconds = Number(upload.duration_seconds ?? 0);
          if (seconds > videoSeconds + MUSIC_MARGIN_SECONDS)
            throw badRequest(M.uploadAudioTooLong(seconds, videoSeconds + MUSIC_MARGIN_SECONDS), 'music.uploadId');
        }
        let next: StoryboardDocument;
        try {
          next = applyEdit(document, edit);
        } catch (error) {
          if (error instanceof UnknownSceneError) throw badRequest(error.message, `scenes.${error.index}.id`);
          throw error;
        }
        let saved: StoryboardRecord;
        if (ifMatch === undefined) {
          // No condition asked for: the write replaces whatever is stored (API clients written before ETags).
          await saveStoryboard(app.db, row.id, userId, next);
          const text = JSON.stringify(next);
          saved = { document: next, text, revision: revisionOf(text) };
        } else {
          const replaced = await replaceStoryboardIf(app.db, row.id, record.text, next);
          // Another write landed between the read above and this one: the same answer as a stale If-Match.
          if (!replaced) return preconditionFailed(reply, row, await recordOf(row));
          saved = replaced;
        }
        void reply.header('etag', `"${saved.revision}"`);
        return view(row, saved);
      },
      { preHandler: limitWrites },
    );

    const limitRenders = app.createRateLimiter(perUserPerMinute('video-render', RENDERS_PER_MINUTE));
    registerRoute(
      app,
      API.renderVideo,
      async (request) => {
        const userId = request.user.id;
        const row = await ownVideo(userId, request.params.id);
        if (isActiveJobStatus(row.status)) throw conflict(M.renderRunning);
        await storyboardOf(row);
        if (row.version >= MAX_RERENDERS + 1) throw conflict(M.rerenderLimit);
        // Same row, same queue: no allowance is used (it is the same video) and the creator keeps their fair place.
        const queued = await queueRerender(app.db, userId, row.id, MAX_RERENDERS + 1);
        if (queued === undefined) throw conflict(M.renderRunning);
        const { version } = queued;
        await app.jobQueue.enqueue(row.id, userId);
        app.jobEvents.publish(queued.events);
        request.log.info({ jobId: row.id, version }, 'video re-render queued');
        return { jobId: row.id, version };
      },
      { preHandler: limitRenders },
    );

    registerRoute(app, API.videoVersions, async (request) => {
      const row = await ownVideo(request.user.id, request.params.id);
      const rows = await listVersions(app.db, row.id);
      const versions: VideoVersion[] = rows.map((version) => {
        const result = parseResult(version.result);
        return {
          version: version.version,
          videoUrl: result?.videoUrl ?? '',
          createdAt: version.created_at,
          ...(result?.durationSeconds !== undefined ? { durationSeconds: result.durationSeconds } : {}),
          ...(result?.posterUrl ? { posterUrl: result.posterUrl } : {}),
          ...(result?.filename ? { filename: result.filename } : {}),
          ...renderStatsOf(version.render_stats),
        };
      });
      // A video finished before versions were recorded is its own v1.
      const result = parseResult(row.result);
      if (versions.length === 0 && result) {
        versions.push({
          version: 1,
          videoUrl: result.videoUrl,
          createdAt: row.completed_at ?? row.updated_at,
          ...(result.durationSeconds !== undefined ? { durationSeconds: result.durationSeconds } : {}),
          ...(result.posterUrl ? { posterUrl: result.posterUrl } : {}),
          filename: result.filename,
        });
      }
      return { versions };
    });

    // Scratch folders of uploads a previous process was receiving when it ended.
    app.addHook('onReady', async () => {
      const removed = await removeLeftUploadScratch();
      if (removed > 0) app.log.info({ removed }, 'removed upload scratch folders left by an earlier process');
    });
    const limitUploads = app.createRateLimiter(perUserPerMinute('upload', UPLOADS_PER_MINUTE));
    await app.register(async (scope) => {
      await scope.register(multipart, { limits: { fileSize: UPLOAD_AUDIO_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
      registerRoute(
        scope,
        API.upload,
        async (request) => {
          const userId = request.user.id;
          if (!request.isMultipart()) throw badRequest(M.uploadMissingFile, 'file');
          const file = await request.file();
          if (!file || file.fieldname !== 'file') throw badRequest(M.uploadMissingFile, 'file');
          const work = await makeUploadScratch();
          try {
            // A neutral name: the format is found from the bytes, never from the name the browser sent.
            const received = join(work, 'received');
            await pipeline(file.file, createWriteStream(received));
            if (file.file.truncated) throw badRequest(M.uploadTooLarge, 'file');
            const prepared = await decodeSlots.run(userId, () =>
              prepareUpload(mediaTools(), received, join(work, 'stored'), { keepTransparency: request.query.purpose === 'logo' }),
            );
            const id = randomUUID();
            const fileName = `${id}.${prepared.extension}`;
            await uploadFiles.store(userId, fileName, prepared.path);
            await insertUpload(app.db, {
              id,
              user_id: userId,
              kind: prepared.kind,
              file_name: fileName,
              content_hash: prepared.contentHash,
              width: prepared.width ?? null,
              height: prepared.height ?? null,
              duration_seconds: prepared.durationSeconds ?? null,
              size_bytes: prepared.sizeBytes,
              created_at: new Date().toISOString(),
            });
            return {
              id,
              kind: prepared.kind,
              ...(prepared.width !== undefined ? { width: prepared.width } : {}),
              ...(prepared.height !== undefined ? { height: prepared.height } : {}),
              ...(prepared.durationSeconds !== undefined ? { durationSeconds: prepared.durationSeconds } : {}),
            };
          } finally {
            await removeUploadScratch(work);
          }
        },
        { preHandler: limitUploads },
      );
    });
  },
  { name: 'storyboard', fastify: '5.x', dependencies: ['config', 'database', 'storage', 'auth', 'rate-limit', 'error-handler', 'jobs'] },
);
