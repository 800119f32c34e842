import { useId } from 'react';

/** A file button: a visually plain <label> over a hidden <input type=file>, so it stays keyboard reachable. */
export function FileButton({ label, accept, busy, onFile, ariaLabel }: { label: string; accept: string; busy: boolean; onFile(file: File): void; ariaLabel: string }) {
  const id = useId();
  return (
    <span className="rs-file-button">
      <input
        id={id}
        type="file"
        accept={accept}
        className="rs-visually-hidden"
        aria-label={ariaLabel}
        disabled={busy}
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
