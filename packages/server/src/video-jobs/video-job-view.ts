import { createHash } from 'node:crypto';
import {
  generateVideoBodySchema,
  initialSteps,
  jobStatusSchema,
  jobStepsSchema,
  pipelineStepSchema,
  sourceCredit,
  videoResultSchema,
  type GenerationParams,
  type JobSteps,
  type VideoJob,
  type VideoResult,
} from '@reelsmith/contracts';
import type { VideoJobRow } from '../db/schema.js';

export { initialSteps };

/** Runs of one job that may end without finishing (the process or worker crashed) before it is failed. */
export const MAX_CRASHED_RUNS = 2;

/** A failed job whose runs crashed their process: a retry would run it (and crash it) again. */
export function crashedItsRuns(row: Pick<VideoJobRow, 'status' | 'unfinished_runs'>): boolean {
  return row.status === 'failed' && row.unfinished_runs > MAX_CRASHED_RUNS;
}

export function parseSteps(text: string): JobSteps {
  try {
    const parsed = jobStepsSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // A damaged column reads as fresh steps rather than failing the whole listing.
  }
  return initialSteps();
}

export function parseResult(text: string | null): VideoResult | null {
  if (text === null) return null;
  try {
    const parsed = videoResultSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A stored job's parameters. Rows were written from a validated request; a row that no longer
 * parses (edited by hand, written by an older build) fails loudly here rather than reaching the
 * pipeline half-formed.
 */
export function parseParams(text: string): GenerationParams {
  // An article source makes params of up to a few hundred kilobytes: those are parsed when read, not kept.
  if (text.length > LARGE_PARAMS_CHARS) return generateVideoBodySchema.parse(JSON.parse(text));
  let parsed = parsedParams.get(text);
  if (parsed) {
    // Most recently used last, so the oldest entry is the one dropped.
    parsedParams.delete(text);
  } else {
    parsed = Object.freeze(generateVideoBodySchema.parse(JSON.parse(text)));
    if (parsedParams.size >= PARSED_PARAMS_LIMIT) parsedParams.delete(parsedParams.keys().next().value!);
  }
  parsedParams.set(text, parsed);
  // A copy, so a caller that changes its params never changes what the next reader of this job sees.
  return { ...parsed };
}

/**
 * A job's params never change after it is created, yet every status poll, listing and event reads
 * them: the schema's text checks run once per distinct params text, not once per read.
 */
const PARSED_PARAMS_LIMIT = 2000;
const parsedParams = new Map<string, Readonly<GenerationParams>>();
const LARGE_PARAMS_CHARS = 16 * 1024;

/**
 * What responses show of a job's params. For large params (an article's text) only this small view
 * is kept, under a digest of the text, so listings do not parse the article on every poll.
 */
function publicParamsOf(text: string): VideoJob['params'] {
  if (text.length <= LARGE_PARAMS_CHARS) return publicParams(parseParams(text));
  const key = createHash('sha256').update(text).digest('base64');
  let view = publicViews.get(key);
  if (view) publicViews.delete(key);
  else {
    view = Object.freeze(publicParams(parseParams(text)));
    if (publicViews.size >= PARSED_PARAMS_LIMIT) publicViews.delete(publicViews.keys().next().value!);
  }
  publicViews.set(key, view);
  return { ...view };
}
const publicViews = new Map<string, Readonly<VideoJob['params']>>();

/**
 * The one place a video_jobs row becomes the API's VideoJob (HTTP responses and anything else that
 * shows a job). Each stored part is parsed with its own schema above and the status here, so the
 * whole object is not validated a second time (an HTTP answer is checked once more by the route's
 * response schema).
 */
export function toVideoJob(row: VideoJobRow): VideoJob {
  const step = pipelineStepSchema.safeParse(row.current_step);
  const clamp = (value: number) => Math.min(100, Math.max(0, Number(value)));
  return {
    id: row.id,
    status: jobStatusSchema.parse(row.status),
    progress: clamp(row.progress),
    currentStep: step.success ? step.data : null,
    stepProgress: clamp(row.step_progress),
    params: publicParamsOf(row.params),
    created_at: row.created_at,
    updated_at: row.updated_at,
    result: parseResult(row.result),
    error: row.error,
    steps: parseSteps(row.steps),
    ...(crashedItsRuns(row) ? { retryable: false } : {}),
  };
}

/** A job's params as responses show them: the source's credit (kind, title, link), never its text. */
function publicParams({ source, ...params }: GenerationParams): VideoJob['params'] {
  return source ? { ...params, source: sourceCredit(source) } : params;
}
