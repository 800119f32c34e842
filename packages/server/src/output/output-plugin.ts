import fp from 'fastify-plugin';
import { z } from 'zod';
import { notFound } from '../errors.js';
import { OUTPUT_URL_PREFIX, outputKey, slugifyTitle } from './output-files.js';

/** Each video's directory name is 128 random bits and never reused, so its files never change. */
const OUTPUT_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
/** Only `/<32 hex>/<file>.mp4|.jpg` is ever served: no listing, no other depth, nothing else in the folder. */
const outputParamsSchema = z.object({
  token: z.string().regex(/^[0-9a-f]{32}$/, 'must be an output token'),
  file: z.string().regex(/^[a-z0-9-]+\.(mp4|jpg)$/, 'must be a video or poster file name'),
});
const outputQuerySchema = z.object({ download: z.string().optional() }).loose();

/** RFC 5987 value-chars: encodeURIComponent leaves `'()*!` as they are, which the attr-char grammar excludes. */
const rfc5987 = (text: string): string =>
  encodeURIComponent(text).replace(/['()*!]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `attachment` for a download: `filename*` carries the real title in UTF-8 (Hindi and Japanese keep
 * it), `filename` an ASCII fallback with the job id so two downloads never collide.
 */
export function downloadDisposition(title: string, jobId: string, extension: string, suffix = ''): string {
  const readable = `${
    title
      .normalize('NFC')
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
      .trim()
      .slice(0, 120) || 'Reelsmith video'
  }${suffix}`;
  const fallback = `${slugifyTitle(title)}${suffix}-${jobId}.${extension}`.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${rfc5987(`${readable}.${extension}`)}`;
}

/**
 * Finished videos and posters under /output/<token>/<name>, from storage (DATA_DIR/output or the S3
 * bucket): range requests (video seeking), ETag and caching, or with S3 a presigned redirect;
 * `?download=1` adds Content-Disposition so the browser saves the file instead of playing it. The
 * unguessable token directory is the access control, as the spec's plain /output URLs (used by
 * <video src> and downloads) cannot carry a bearer token.
 */
export const outputPlugin = fp(
  async (app) => {
    app.route({
      method: 'GET',
      url: `${OUTPUT_URL_PREFIX}/:token/:file`,
      schema: { params: outputParamsSchema, querystring: outputQuerySchema },
      handler: async (request, reply) => {
        const { token, file } = request.params as z.infer<typeof outputParamsSchema>;
        const { download } = request.query as z.infer<typeof outputQuerySchema>;
        let disposition: string | undefined;
        if (download === '1' || download === 'true') {
          // The latest version's token is the job's own; earlier versions (storyboard re-renders) keep theirs.
          const job =
            (await app.db.selectFrom('video_jobs').select(['id', 'result']).where('output_token', '=', token).executeTakeFirst()) ??
            (await app.db
              .selectFrom('video_versions')
              .select(['video_id as id', 'result'])
              .where('output_token', '=', token)
              .executeTakeFirst());
          if (!job) throw notFound('File not found');
          const { title = '', version = 1 } = JSON.parse(job.result ?? '{}') as { title?: string; version?: number };
          // From v2 on the name carries the version, so two versions' downloads never overwrite each other.
          disposition = downloadDisposition(title, job.id, file.slice(file.lastIndexOf('.') + 1), version > 1 ? `-v${version}` : '');
        }
        reply.header('x-content-type-options', 'nosniff');
        return app.storage.serve(request, reply, outputKey(token, file), {
          cacheControl: `private, max-age=${OUTPUT_MAX_AGE_SECONDS}, immutable`,
          ...(disposition ? { disposition } : {}),
        });
      },
    });
  },
  { name: 'output', fastify: '5.x', dependencies: ['config', 'database', 'storage'] },
);
