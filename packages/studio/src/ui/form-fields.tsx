import { useId, useState, type InputHTMLAttributes } from 'react';
import { Field } from './field-error.js';
import { EyeIcon, EyeOffIcon } from './eye-icons.js';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
}

/** A labelled input with its validation message underneath, tied together for assistive tech. */
export function TextField({ label, error, type = 'text', ...input }: FieldProps) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error}>
      <input id={id} type={type} className="rs-field__input" {...invalidAttributes(id, error)} {...input} />
    </Field>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField({ label, error, ...input }: FieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <Field id={id} label={label} error={error}>
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
    </Field>
  );
}

/** The input's invalid state, and the message that tells why, for assistive tech. */
const invalidAttributes = (id: string, error: string | undefined) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
});

export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="rs-alert rs-alert--error">
      {message}
    </div>
  );
}
