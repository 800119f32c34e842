import { useId } from 'react';
import './file-button.css';

/**
 * A file button: a visually plain <label> over a hidden <input type=file>, so it stays keyboard
 * reachable. `busy` is this button's own upload running (it says so); `disabled` only greys it.
 */
export function FileButton({
  label,
  accept,
  busy,
  disabled = false,
  onFile,
  ariaLabel,
}: {
  label: string;
  accept: string;
  busy: boolean;
  disabled?: boolean;
  onFile(file: File): void;
  ariaLabel: string;
}) {
  const id = useId();
  return (
    <span className="rs-file-button">
      <input
        id={id}
        type="file"
        accept={accept}
        className="rs-visually-hidden"
        aria-label={ariaLabel}
        disabled={busy || disabled}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
      <label htmlFor={id} className={`rs-button rs-button--ghost rs-button--small${busy ? ' rs-button--busy' : ''}`} aria-hidden="true">
        {busy ? 'Uploading…' : label}
      </label>
    </span>
  );
}
