import type { ReactNode } from 'react';

/** A field's error under it; `id` is what the field's aria-describedby names. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="rs-field__error">
      {message}
    </p>
  ) : null;
}

/** The label over a field's control (`id`) and its validation message under it. */
export function Field({ id, label, error, children }: { id: string; label: string; error?: string | undefined; children: ReactNode }) {
  return (
    <div className={`rs-field${error ? ' rs-field--invalid' : ''}`}>
      <label htmlFor={id} className="rs-field__label">
        {label}
      </label>
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
