import type { GenerationParams } from '@reelsmith/contracts';
import { ProviderError } from '@reelsmith/pipeline';
import { HttpError } from '../errors.js';
import { resolveSource, type ResolveSourceOptions } from './resolve-source.js';

/** The status that marks a ProviderError as a refusal of the creator's input: the job keeps its message. */
const INPUT_REFUSED = 400;

/**
 * A job's link source read when the job starts (a batch's url row, accepted before its page was
 * read): the same fetch, limits and sandbox as a single video's link, counted against the job's
 * owner. A page refused (unreachable, too complex, not an article, another language) fails only
 * this job, with the reason a single video's request would have answered.
 */
export function jobLinkReader(
  options: Pick<ResolveSourceOptions, 'allowPrivate' | 'fetchOptions'> & { storyModel: (params: GenerationParams) => boolean },
) {
  return async (job: { user_id: string }, params: GenerationParams): Promise<GenerationParams> => {
    try {
      return await resolveSource(params, {
        allowPrivate: options.allowPrivate,
        storyModel: options.storyModel(params),
        user: job.user_id,
        ...(options.fetchOptions ? { fetchOptions: options.fetchOptions } : {}),
      });
    } catch (error) {
      if (error instanceof HttpError) throw new ProviderError(error.message, 'source', false, INPUT_REFUSED);
      throw error;
    }
  };
}
