/** The bar fixed under the storyboard: what blocks a render (or the scene count and renders left), Save and Render. */
export function RenderBar({
  message,
  summary,
  busy,
  rendering,
  locked,
  canRender,
  onSave,
  onRender,
}: {
  /** An error to show instead of the summary. */
  message: string | null;
  summary: string;
  busy: 'saving' | 'rendering' | null;
  rendering: boolean;
  locked: boolean;
  canRender: boolean;
  onSave(): void;
  onRender(): void;
}) {
  return (
    <div className="rs-storyboard__bar" role="region" aria-label="Render">
      <div className="rs-storyboard__bar-text">{message ? <p className="rs-field__error" role="alert">{message}</p> : <p>{summary}</p>}</div>
      <button type="button" className="rs-button rs-button--ghost" disabled={locked} onClick={onSave}>
        {busy === 'saving' ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="rs-button rs-button--primary" disabled={locked || !canRender} onClick={onRender}>
        {busy === 'rendering' ? 'Starting…' : rendering ? 'Rendering…' : 'Render'}
      </button>
    </div>
  );
}
