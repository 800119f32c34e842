import type { SourceChoice, SourceDraft } from '../shared/generation/source-draft.js';
import { scriptBudgetError, sourceHint } from './script-budget.js';
import WikipediaLine, { type WikipediaLineProps } from './wikipedia-line.js';

const PLACEHOLDERS: Record<Exclude<SourceChoice, 'topic'>, string> = {
  script: 'Paste or write the words the narrator should say, as they should be said.',
  article: 'Paste an article, or a link to one (https://…)',
};

export interface SourceEditorProps {
  id: string;
  source: SourceDraft;
  duration: number;
  /** The form's message for the source (empty, too long, not a link). */
  error?: string | undefined;
  /** The box holds a lone link, which the server will read. */
  isLink: boolean;
  rows: number;
  onSource(source: SourceDraft): void;
  onBlur?(): void;
}

/**
 * The lazily loaded half of the source fields: the script or article box, or (given a `topic`) Topic
 * mode's "Facts from Wikipedia" line. One chunk for both: a chunk of its own would add its file
 * names to the first load's list of dynamic imports, and the visitor's first load has no room left.
 */
export default function SourceFieldsExtra(props: SourceEditorProps | WikipediaLineProps) {
  return 'topic' in props ? <WikipediaLine {...props} /> : <SourceEditor {...props} />;
}

/** The script or article box: where the text came from, the text, and how much of it a video tells. */
function SourceEditor({ id, source, duration, error, isLink, rows, onSource, onBlur }: SourceEditorProps) {
  const problem = error ?? (source.choice === 'script' ? scriptBudgetError(source.text, duration) : null);
  const hint = problem ? null : sourceHint(source, duration, isLink);
  const noteId = `${id}-note`;
  return (
    <>
      {source.page ? (
        <p className="rs-source__page-credit">
          Read from{' '}
          {source.page.url ? (
            <a href={source.page.url} target="_blank" rel="noreferrer">
              {source.page.title || source.page.url}
            </a>
          ) : (
            source.page.title
          )}
          <button type="button" className="rs-link-button" onClick={() => onSource({ ...source, text: '', page: null })}>
            Clear
          </button>
        </p>
      ) : null}
      <div className={`rs-field${problem ? ' rs-field--invalid' : ''}`}>
        <label htmlFor={id} className="rs-field__label">
          {source.choice === 'script' ? 'Script' : 'Article text or link'}
        </label>
        <textarea
          id={id}
          className="rs-field__input rs-field__textarea rs-source__text"
          rows={rows}
          placeholder={source.choice === 'topic' ? undefined : PLACEHOLDERS[source.choice]}
          value={source.text}
          onChange={(e) => onSource({ ...source, text: e.target.value })}
          onBlur={onBlur}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem || hint ? noteId : undefined}
        />
        {problem ? (
          <p id={noteId} className="rs-field__error">
            {problem}
          </p>
        ) : hint ? (
          <p id={noteId} className="rs-source__hint">
            {hint}
          </p>
        ) : null}
      </div>
    </>
  );
}
