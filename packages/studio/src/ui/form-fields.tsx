import { useId, useState, type InputHTMLAttributes } from 'react';
import { EyeIcon, EyeOffIcon } from './eye-icons.js';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
}

/** A labelled input with its validation message underneath, tied together for assistive tech. */
export function TextField({ label, error, type = 'text', ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`rs-field${error ? ' rs-field--invalid' : ''}`}>
      <label htmlFor={id} className="rs-field__label">
        {label}
      </label>
      <input
        id={id}
        type={type}
        className="rs-field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {error ? (
        <p id={errorId} className="rs-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField({ label, error, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const [visible, setVisible] = useState(false);
  return (
    <div className={`rs-field${error ? ' rs-field--invalid' : ''}`}>
      <label htmlFor={id} className="rs-field__label">
        {label}
      </label>
      <div className="rs-field__password">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          className="rs-field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        {/* Labelled "Show"/"Hide" (not "Show password") so a label search for the field name finds only the input. */}
        <button
          type="button"
          className="rs-field__toggle"
          aria-label={visible ? 'Hide' : 'Show'}
          aria-controls={id}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
      {error ? (
        <p id={errorId} className="rs-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="rs-alert rs-alert--error">
      {message}
    </div>
  );
}
