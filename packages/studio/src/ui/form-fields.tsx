import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { FieldError } from './field-error.js';
import { EyeIcon, EyeOffIcon } from './eye-icons.js';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
}

/** A labelled input with its validation message underneath, tied together for assistive tech. */
export function TextField({ label, error, type = 'text', ...input }: FieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error}>
      <input id={id} type={type} className="rs-field__input" {...invalidAttributes(id, error)} {...input} />
    </FieldFrame>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField({ label, error, ...input }: FieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <FieldFrame id={id} label={label} error={error}>
      <div className="rs-field__password">
        <input id={id} type={visible ? 'text' : 'password'} className="rs-field__input" {...invalidAttributes(id, error)} {...input} />
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
    </FieldFrame>
  );
}

/** The input's invalid state, and the message that tells why, for assistive tech. */
const invalidAttributes = (id: string, error: string | undefined) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
});

/** The label over a field's input and its validation message under it. */
function FieldFrame({ id, label, error, children }: { id: string; label: string; error: string | undefined; children: ReactNode }) {
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

export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="rs-alert rs-alert--error">
      {message}
    </div>
  );
}
