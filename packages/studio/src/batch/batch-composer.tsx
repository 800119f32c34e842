import { BATCH_MAX_ROWS, BATCH_NAME_MAX_LENGTH, batchErrorResponseSchema, type BatchRowError } from '@reelsmith/contracts';
import { useCallback, useId, useMemo, useState, type DragEvent } from 'react';
import { ApiError, errorMessage } from '../api/api-client.js';
import { useApi } from '../services.js';
import { GenerateOptionFields } from '../shared/generation/generate-option-fields.js';
import { useGenerationAccess } from '../shared/generation/use-generation-access.js';
import { useGenerationForm } from '../shared/generation/use-generation-form.js';
import { toast } from '../toaster.js';
import { FileButton } from '../ui/file-button.js';
import {
  batchDefaults,
  checkRows,
  defaultsErrors,
  rowLabel,
  rowOverrides,
  rowsFromCsv,
  rowsFromText,
  type DraftList,
} from './batch-model.js';
import './batch-page.css';

const EXAMPLE = 'Why octopuses have three hearts\nHow bees talk by dancing\nThe tallest tree on Earth';

/**
 * The list, the shared options and the rows' check; queues the batch once every row is valid. The
 * web's Batch page and the embedded studio's Batch view both show it (its own file, so the embed's
 * lazily loaded view does not share the page's header with the web's first load).
 */
export function BatchComposer({
  onQueued,
  openPricing,
}: {
  onQueued(batchId: string): void;
  /** Opens the plans when the plan refuses the batch (the embed opens them in a tab of the full app). */
  openPricing?: () => void;
}) {
  const api = useApi();
  const access = useGenerationAccess();
  const idBase = useId();
  const [text, setText] = useState('');
  const [csv, setCsv] = useState<DraftList | null>(null);
  const [reading, setReading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [name, setName] = useState('');
  const [serverErrors, setServerErrors] = useState<{ rows: BatchRowError[]; message: string; plan?: boolean } | null>(null);
  const [sending, setSending] = useState(false);
  // A changed option may clear what the server refused: its errors go until the next try.
  const form = useGenerationForm(useCallback(() => setServerErrors(null), []));
  const { values, submitAttempted, setSubmitAttempted, voiceProvider } = form;

  const defaults = useMemo(() => batchDefaults(values, voiceProvider), [values, voiceProvider]);
  const list = useMemo(() => csv ?? rowsFromText(text), [csv, text]);
  const checked = useMemo(() => checkRows(list, defaults, serverErrors?.rows), [list, defaults, serverErrors]);
  const optionErrors = useMemo(() => defaultsErrors(defaults), [defaults]);
  const shownError = form.shownErrors(optionErrors);

  const readCsv = async (file: File) => {
    setReading(true);
    setServerErrors(null);
    try {
      setCsv(await rowsFromCsv(file));
    } finally {
      setReading(false);
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void readCsv(file);
  };

  const queue = async () => {
    setSubmitAttempted(true);
    if (!checked.valid) return;
    setSending(true);
    setServerErrors(null);
    try {
      const batch = await api.call('createBatch', {
        body: { ...(name.trim() ? { name: name.trim() } : {}), defaults, rows: list.rows.map((row) => row.options) },
      });
      toast.success(`${batch.rows.length} video${batch.rows.length === 1 ? '' : 's'} queued`);
      onQueued(batch.id);
    } catch (failure) {
      const body = failure instanceof ApiError ? batchErrorResponseSchema.safeParse(failure.body) : null;
      const message = errorMessage(failure, 'The batch could not be queued. Try again.');
      // A 403 is the plan's refusal (a free account, a month's videos used up): the plans are one click away.
      const plan = failure instanceof ApiError && failure.status === 403;
      setServerErrors({ rows: body?.success ? (body.data.invalidRows ?? []) : [], message, ...(plan ? { plan } : {}) });
    } finally {
      setSending(false);
    }
  };

  const ready = checked.rows.length - checked.invalidCount;
  return (
    <form
      className="rs-batch"
      aria-label="Make a batch of videos"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void queue();
      }}
    >
      <section
        className={`rs-card rs-batch__list${dragging ? ' rs-batch__list--dragging' : ''}`}
        aria-labelledby={`${idBase}-list`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <h2 id={`${idBase}-list`} className="rs-section-title">
          1. Your list
        </h2>
        {csv ? (
          <div className="rs-batch__csv">
            <p>
              <strong>{csv.fileName}</strong>: {csv.rows.length} row{csv.rows.length === 1 ? '' : 's'}
            </p>
            <button type="button" className="rs-button rs-button--ghost rs-button--small" onClick={() => setCsv(null)}>
              Use a pasted list instead
            </button>
          </div>
        ) : (
          <>
            <label htmlFor={`${idBase}-topics`} className="rs-field__label">
              Topics, one a line (up to {BATCH_MAX_ROWS})
            </label>
            <textarea
              id={`${idBase}-topics`}
              className="rs-field__input rs-batch__topics"
              rows={6}
              placeholder={EXAMPLE}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setServerErrors(null);
              }}
            />
          </>
        )}
        <div className="rs-batch__drop">
          {/* A phone has nothing to drop a file from: there it says to pick one (batch-page.css). */}
          {csv ? (
            <span>Another file?</span>
          ) : (
            <>
              <span className="rs-batch__drop-text">Or drop a CSV file here</span>
              <span className="rs-batch__pick-text">Or pick a CSV file</span>
            </>
          )}
          <FileButton
            label="Choose a CSV file"
            ariaLabel="Choose a CSV file"
            accept=".csv,text/csv"
            busy={reading}
            onFile={(file) => void readCsv(file)}
          />
        </div>
        <p className="rs-batch__hint">
          CSV columns: topic, script, url, language, duration, resolution, style, visualStyle, captionStyle, music, voice. Empty cells take
          the shared options below.
        </p>
        {list.problem ? (
          <p className="rs-field__error" role="alert">
            {list.problem}
          </p>
        ) : null}
      </section>

      <section className="rs-card rs-generate rs-batch__options" aria-labelledby={`${idBase}-options`}>
        <h2 id={`${idBase}-options`} className="rs-section-title">
          2. Shared options
        </h2>
        <GenerateOptionFields idBase={idBase} form={form} shownError={shownError} access={access} />
      </section>

      <section className="rs-card rs-batch__check" aria-labelledby={`${idBase}-check`}>
        <h2 id={`${idBase}-check`} className="rs-section-title">
          3. Check and queue
        </h2>
        {checked.rows.length === 0 ? (
          <p className="rs-batch__empty">Paste topics or drop a CSV: each row is checked here before anything is queued.</p>
        ) : (
          <>
            <p className="rs-batch__summary" aria-live="polite">
              {ready} of {checked.rows.length} row{checked.rows.length === 1 ? '' : 's'} ready
              {checked.invalidCount > 0 ? `, ${checked.invalidCount} to fix` : ''}
              {Object.keys(optionErrors).length > 0 ? ' (and the shared options)' : ''}
            </p>
            <ol className={`rs-batch__rows${list.from === 'csv' ? ' rs-batch__rows--lines' : ''}`} aria-label="Rows">
              {checked.rows.map((row) => (
                <li key={row.index} className={`rs-batch__row${row.errors.length ? ' rs-batch__row--invalid' : ''}`}>
                  <span className="rs-batch__index">{row.line ? `Line ${row.line}` : `${row.index + 1}.`}</span>
                  <div className="rs-batch__what">
                    <span className="rs-batch__topic">{rowLabel(row.options)}</span>
                    {rowOverrides(row.options) ? <span className="rs-batch__overrides">{rowOverrides(row.options)}</span> : null}
                    {row.errors.length ? (
                      <div className="rs-batch__errors">
                        {row.errors.map((error) => (
                          <p key={`${error.field}:${error.message}`}>
                            <strong>{error.field}</strong>: {error.message}
                          </p>
                        ))}
                      </div>
                    ) : null}
                  </div>
                  <span className={`rs-batch__verdict${row.errors.length ? ' rs-batch__verdict--bad' : ''}`}>
                    {row.errors.length ? 'Fix' : 'Ready'}
                  </span>
                </li>
              ))}
            </ol>
          </>
        )}
        {serverErrors ? (
          <p className="rs-field__error" role="alert">
            {serverErrors.message}
            {serverErrors.plan && openPricing ? (
              <>
                {' '}
                <button type="button" className="rs-link-button" onClick={openPricing}>
                  See the plans
                </button>
              </>
            ) : null}
          </p>
        ) : submitAttempted && !checked.valid && checked.rows.length > 0 ? (
          <p className="rs-field__error" role="alert">
            Nothing was queued: fix the rows marked Fix{Object.keys(optionErrors).length > 0 ? ' and the shared options marked in red' : ''}{' '}
            first.
          </p>
        ) : null}
        <div className="rs-batch__queue">
          <label className="rs-field__label rs-batch__name">
            Batch name (optional)
            <input
              className="rs-field__input"
              value={name}
              maxLength={BATCH_NAME_MAX_LENGTH}
              placeholder="e.g. Ocean week"
              onChange={(event) => setName(event.target.value)}
            />
          </label>
          <button type="submit" className="rs-button rs-button--primary" disabled={sending || checked.rows.length === 0}>
            {sending ? 'Queuing…' : `Queue ${checked.rows.length} video${checked.rows.length === 1 ? '' : 's'}`}
          </button>
        </div>
      </section>
    </form>
  );
}
