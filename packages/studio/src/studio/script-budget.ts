import { countNarrationWords, narrationWordLimit } from '@reelsmith/contracts';
import type { SourceDraft } from '../shared/generation/source-draft.js';

/**
 * The word budget of a source, apart from the form's first load (the storyboard's counting rules
 * come with the contracts' whole storyboard module): the source editor and the submit load it.
 */

/** A script is told word for word, so it must fit the duration; the server refuses it with the same count. */
export function scriptBudgetError(text: string, durationSeconds: number): string | null {
  const words = countNarrationWords(text);
  const limit = narrationWordLimit(durationSeconds);
  return words > limit
    ? `Your script has ${words} words; a ${durationSeconds} s video holds at most ${limit}. Shorten it or choose a longer duration.`
    : null;
}

/** The line under the source box: what will be told, and how much of it fits. `isLink`: the box holds a lone link. */
export function sourceHint(draft: SourceDraft, durationSeconds: number, isLink: boolean): string | null {
  const text = draft.text.trim();
  if (draft.choice === 'topic' || text === '') return null;
  const words = countNarrationWords(text);
  if (draft.choice === 'script')
    return `${words} ${words === 1 ? 'word' : 'words'} · a ${durationSeconds} s video holds at most ${narrationWordLimit(durationSeconds)}, told word for word`;
  if (isLink) return 'A link: the page is read when you generate, and its main sentences are told.';
  return `${words} ${words === 1 ? 'word' : 'words'} of article · its most central sentences are told in ${durationSeconds} s`;
}
