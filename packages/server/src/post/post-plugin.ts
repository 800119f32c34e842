import { API, MESSAGES, POST_KIT_MESSAGES as M, type CaptionFileFormat, type VideoResult } from '@reelsmith/contracts';
import { buildCaptionCues, formatSrt, formatVtt, type CaptionTrack } from '@reelsmith/pipeline';
import fp from 'fastify-plugin';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conflict, notFound } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { captionTrackFilename, outputKey } from '../output/output-files.js';
import { listVersions } from '../storyboard/storyboard-store.js';
import { findUserJob, updateUserPostKit } from '../video-jobs/video-job-repository.js';
import { parseResult } from '../video-jobs/video-job-view.js';

const CONTENT_TYPES: Record<CaptionFileFormat, string> = {
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
};

/** A stored caption track as this server wrote it; anything else is treated as missing. */
function asCaptionTrack(value: unknown): CaptionTrack | null {
  if (typeof value !== 'object' || value === null) return null;
  const track = value as Partial<CaptionTrack>;
  const wordsOk =
    Array.isArray(track.words) &&
    track.words.every((word) => typeof word?.word === 'string' && Number.isFinite(word.start) && Number.isFinite(word.end));
  const cutsOk = Array.isArray(track.cuts) && track.cuts.every((cut) => Number.isFinite(cut));
  return wordsOk && cutsOk && typeof track.language === 'string' ? (track as CaptionTrack) : null;
}

/**
 * What a post needs beside the MP4: the caption files (SubRip, WebVTT) of any version, made from the
 * word timings stored with that version's video, and the creator's edits of the post kit.
 */
export const postPlugin = fp(
  async (app) => {
    /** The version's output folder and video file name: the latest one's, or the one asked for. */
    async function versionOutput(videoId: string, row: { output_token: string | null; result: string | null }, version?: number) {
      if (version !== undefined) {
        const stored = (await listVersions(app.db, videoId)).find((entry) => entry.version === version);
        const result = stored ? parseResult(stored.result) : null;
        if (stored && result) return { token: stored.output_token, result };
        // A video finished before versions were recorded is its own v1.
        const latest = parseResult(row.result);
        if (version === 1 && latest && row.output_token && (await listVersions(app.db, videoId)).length === 0)
          return { token: row.output_token, result: latest };
        throw notFound(M.unknownVersion);
      }
      const result = parseResult(row.result);
      if (!result || !row.output_token) throw conflict(M.notFinished);
      return { token: row.output_token, result };
    }

    async function readTrack(token: string, result: VideoResult): Promise<CaptionTrack> {
      const key = outputKey(token, captionTrackFilename(result.filename));
      if (!(await app.storage.exists(key))) throw notFound(M.noCaptionFile);
      const dir = await mkdtemp(join(tmpdir(), 'reelsmith-captions-'));
      try {
        const file = join(dir, 'track.json');
        await app.storage.download(key, file);
        const track = asCaptionTrack(JSON.parse(await readFile(file, 'utf8')));
        if (!track) throw notFound(M.noCaptionFile);
        return track;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }

    registerRoute(app, API.videoCaptions, async (request, reply) => {
      const row = await findUserJob(app.db, request.user.id, request.params.id);
      if (!row) throw notFound(MESSAGES.notFound);
      const { token, result } = await versionOutput(row.id, row, request.query.version);
      const cues = buildCaptionCues(await readTrack(token, result));
      const format = request.query.format;
      const body = format === 'vtt' ? formatVtt(cues) : formatSrt(cues);
      const name = `${result.filename.replace(/\.mp4$/i, '')}.${format}`;
      return reply
        .type(CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'private, max-age=60')
        .send(body);
    });

    registerRoute(app, API.updatePostKit, async (request) => {
      const row = await findUserJob(app.db, request.user.id, request.params.id);
      if (!row) throw notFound(MESSAGES.notFound);
      if (!parseResult(row.result)) throw conflict(M.notFinished);
      const saved = await updateUserPostKit(app.db, request.user.id, row.id, request.body);
      if (!saved) throw conflict(M.notFinished);
      request.log.info({ jobId: row.id }, 'post kit edited');
      return saved;
    });
  },
  { name: 'post', fastify: '5.x', dependencies: ['config', 'database', 'storage', 'auth', 'error-handler'] },
);
