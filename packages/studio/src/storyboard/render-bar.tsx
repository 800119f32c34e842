import type { SaveStatus } from './use-storyboard-editor.js';

const SAVE_TEXT: Record<Exclude<SaveStatus, 'failed'>, string> = { saved: 'Saved', pending: 'Saving…', saving: 'Saving…' };

/** Where the draft stands: saved, on its way, or not saved with a way to try again. */
function SaveIndicator({ status, onRetry }: { status: SaveStatus; onRetry(): void }) {
  return (
    <div className={`rs-storyboard__save rs-storyboard__save--${status}`} role="status" aria-label="Draft">
      {status === 'failed' ? (
        <>
          <span>Not saved:</span>{' '}
          <button type="button" className="rs-link-button" onClick={onRetry}>
            retry
          </button>
        </>
      ) : (
        <span>{SAVE_TEXT[status]}</span>
      )}
    </div>
  );
}

/** The bar fixed under the storyboard: what blocks a render (or the scene count and renders left), the draft's save state and Render. */
export function RenderBar({
  message,
  summary,
  note,
  saveStatus,
  onRetrySave,
  busy,
  rendering,
  locked,
  canRender,
  onRender,
}: {
  /** An error to show instead of the summary. */
  message: string | null;
  summary: string;
  /** What a render will do, said before it starts. */
  note: string;
  saveStatus: SaveStatus;
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
        <p className="rs-storyboard__bar-note">{note}</p>
      </div>
      <SaveIndicator status={saveStatus} onRetry={onRetrySave} />
      <button type="button" className="rs-button rs-button--primary" disabled={locked || !canRender} onClick={onRender}>
        {busy === 'rendering' ? 'Starting…' : rendering ? 'Rendering…' : 'Render'}
      </button>
    </div>
  );
}
