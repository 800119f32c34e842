import { useState, type FormEvent } from 'react';
import type { FieldErrors, ValidationResult } from './validation.js';

export interface AuthFormOptions<V extends Record<string, string>, T> {
  initial: V;
  validate(values: V): ValidationResult<T, keyof V & string>;
  /** Sends the valid form; a throw is the failure `failureMessage` words. */
  send(data: T): Promise<void>;
  failureMessage(error: unknown): string;
}

/**
 * The submit skeleton the sign-in and sign-up forms share: fields re-validated as the user types once
 * they have tried to submit, the button busy while the request runs, and the server's refusal shown
 * above the form (the button frees again only then; on success the form is left).
 */
export function useAuthForm<V extends Record<string, string>, T>({ initial, validate, send, failureMessage }: AuthFormOptions<V, T>) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<keyof V & string>>({});
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const update = (field: keyof V & string) => (event: { target: { value: string } }) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (attempted) {
      const result = validate(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    const result = validate(values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    setSubmitting(true);
    try {
      await send(result.data);
    } catch (error) {
      setFailure(failureMessage(error));
      setSubmitting(false);
    }
  };

  /** What a field of the form takes: its name, value, change handler and error, spread onto a TextField or PasswordField. */
  const field = (name: keyof V & string) => ({ name, value: values[name], onChange: update(name), error: errors[name] });

  return { values, errors, submitting, failure, update, submit, field };
}
