import type { NarrationBudget } from '@reelsmith/contracts';
import type { SaveStatus } from './use-storyboard-editor.js';

const SAVE_TEXT: Record<Exclude<SaveStatus, 'failed' | 'invalid'>, string> = {
  saved: 'Saved',
  pending: 'Saving…',
  saving: 'Saving…',
  conflict: 'Not saved: changed in another tab',
};

/**
 * Where the draft stands: saved, on its way, not saved with a way to try again, or not saved
 * because of the draft itself (what to fix instead of a retry that cannot help).
 */
function SaveIndicator({
  status,
  invalidText,
  overBudget,
  onRetry,
}: {
  status: SaveStatus;
  invalidText: string;
  overBudget: boolean;
  onRetry(): void;
}) {
  // Nothing changed, so nothing to say about saving: "Saved" beside "The narration has 107 words; a
  // 30 s video holds at most 99" read as if all were well. The budget and the error say what to do.
  const quiet = status === 'saved' && overBudget;
  return (
    <div className={`rs-storyboard__save rs-storyboard__save--${status}`} role="status" aria-label="Draft">
      {quiet ? null : status === 'failed' ? (
        <>
          <span>Not saved:</span>{' '}
          <button type="button" className="rs-link-button" onClick={onRetry}>
            retry
          </button>
        </>
      ) : status === 'invalid' ? (
        <span>Not saved: {invalidText}</span>
      ) : (
        <span>{SAVE_TEXT[status]}</span>
      )}
    </div>
  );
}

/** The bar fixed under the storyboard: what blocks a render (or the scene count and renders left), the draft's save state and Render. */
export function RenderBar({
  message,
  budget,
  summary,
  note,
  saveStatus,
  invalidText,
  onRetrySave,
  busy,
  rendering,
  locked,
  canRender,
  onRender,
}: {
  /** An error to show instead of the summary. */
  message: string | null;
  /**
   * The narration's words against what the video's length holds, updated as the creator types: the
   * same count the server checks a save with and the story writer stays within.
   */
  budget: NarrationBudget;
  summary: string;
  /** What a render will do, said before it starts. */
  note: string;
  saveStatus: SaveStatus;
  /** What to fix when the draft cannot be saved as it is ("cut 12 words"). */
  invalidText: string;
  onRetrySave(): void;
  busy: 'rendering' | null;
  rendering: boolean;
  locked: boolean;
  canRender: boolean;
  onRender(): void;
}) {
  return (
    <div className="rs-storyboard__bar" role="region" aria-label="Render">
      <div className="rs-storyboard__bar-text">
        {message ? (
          <p className="rs-field__error" role="alert">
            {message}
          </p>
        ) : (
          <p>{summary}</p>
        )}
        <p
          className={`rs-storyboard__budget${budget.words > budget.limit ? ' rs-storyboard__budget--over' : ''}`}
          role="status"
          aria-label="Narration budget"
        >
          {budget.words} of {budget.limit} words
        </p>
        <p className="rs-storyboard__bar-note">{note}</p>
      </div>
      <SaveIndicator status={saveStatus} invalidText={invalidText} overBudget={budget.words > budget.limit} onRetry={onRetrySave} />
      <button type="button" className="rs-button rs-button--primary" disabled={locked || !canRender} onClick={onRender}>
        {busy === 'rendering' ? 'Starting…' : rendering ? 'Rendering…' : 'Render'}
      </button>
    </div>
  );
}
