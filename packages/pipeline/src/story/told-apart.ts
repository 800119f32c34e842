import { ProviderError } from '../errors.js';
import type { Story, StoryRequest, StorySource } from '../providers/types.js';
import { SandboxLimitError, sharedSandbox } from '../sandbox/worker-pool.js';

/**
 * Wall time of telling one source in a worker thread. A 200,000-character article is told in about
 * 2 s on a loaded core; this leaves room for a busy machine and none for a runaway.
 */
export const TELLING_TIMEOUT_MS = 30_000;

const SOURCE_STORY_MODULE = new URL('./source-story.ts', import.meta.url).href;

/** The status of a ProviderError that refuses the creator's text (as a model's 400 content refusal would). */
export const INPUT_REFUSED_STATUS = 400;

export const TELLING_MESSAGES = {
  limit: (reason: string) =>
    `This text is too long or too unusual to summarise (${reason}). Paste a shorter text written in sentences, or give a topic instead.`,
  nothingToTell:
    'This text has no sentences that can be told (it needs sentences of at least four words ending in a full stop). Paste the article itself, or give a topic instead.',
} as const;

/**
 * Loads the telling module into a sandbox thread ahead of the story step (while a researched job
 * waits on Wikipedia and measures its voice): a cold thread compiles it and the contracts it imports
 * first, about a second on a quiet core and several under load, which the story step otherwise
 * pays. Best effort: a busy pool or a failure leaves the story step to load it as before.
 */
export function warmSourceTelling(): void {
  warming = sharedSandbox()
    .run<boolean>({ module: SOURCE_STORY_MODULE, name: 'telling', args: [] }, { timeoutMs: TELLING_TIMEOUT_MS })
    .catch(() => false);
}

/** The warm-up in flight: a telling waits for it rather than compile the module again in a second thread. */
let warming: Promise<unknown> = Promise.resolve();

/**
 * tellSource (sentence splitting and summarising) in the sandbox pool: a source that would run for
 * minutes or grow the heap past its limit ends one worker thread and fails this job with a message
 * the creator understands, instead of aborting the process that runs every job.
 */
export async function tellSourceApart(request: StoryRequest, source: StorySource, provider: string, signal?: AbortSignal): Promise<Story> {
  let story: Story;
  await warming;
  try {
    story = await sharedSandbox().run<Story>(
      { module: SOURCE_STORY_MODULE, name: 'tellSource', args: [request, source] },
      // A job waits for its turn at a thread (until it is cancelled) instead of failing as an outage.
      { timeoutMs: TELLING_TIMEOUT_MS, waitForTurn: true, ...(signal ? { signal } : {}) },
    );
  } catch (error) {
    if (error instanceof SandboxLimitError) {
      const reason =
        error.limit === 'time' ? `it took longer than ${TELLING_TIMEOUT_MS / 1000} s` : error.message.replace(/\.$/, '').toLowerCase();
      // A text past the time or heap limit is the creator's input to change: status 400 marks it a
      // refusal of the input, so the job keeps this message instead of "the story writer is
      // unavailable, try again" (which would only fail again). A full pool ('busy') is the service's.
      throw new ProviderError(
        TELLING_MESSAGES.limit(reason),
        provider,
        error.limit === 'busy',
        error.limit === 'busy' ? undefined : INPUT_REFUSED_STATUS,
      );
    }
    throw error;
  }
  if (story.scenes.length === 0) throw new ProviderError(TELLING_MESSAGES.nothingToTell, provider, false, INPUT_REFUSED_STATUS);
  return story;
}
