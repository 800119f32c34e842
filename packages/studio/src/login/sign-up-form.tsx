import { MESSAGES } from '@reelsmith/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage } from '../api/api-client.js';
import { useAuth } from '../services.js';
import { FormAlert, PasswordField, TextField } from '../ui/form-fields.js';
import { validateSignUp, type FieldErrors, type SignUpValues } from './validation.js';

export interface SignUpFormProps {
  /** Called with the registered e-mail; the account is created but not signed in. */
  onRegistered(email: string): void;
  header?: ReactNode;
  footer?: ReactNode;
}

const empty: SignUpValues = { name: '', email: '', password: '', confirmPassword: '' };

export function SignUpForm({ onRegistered, header, footer }: SignUpFormProps) {
  const register = useAuth((s) => s.register);
  const [values, setValues] = useState<SignUpValues>(empty);
  const [errors, setErrors] = useState<FieldErrors<keyof SignUpValues>>({});
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const update = (field: keyof SignUpValues) => (event: { target: { value: string } }) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (attempted) {
      const result = validateSignUp(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    const result = validateSignUp(values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    setSubmitting(true);
    try {
      // confirmPassword is a client-only field: register() sends name, e-mail and password.
      const { name, email, password } = result.data;
      await register({ name, email, password });
      onRegistered(email);
    } catch (error) {
      setFailure(errorMessage(error, MESSAGES.registrationFailed));
      setSubmitting(false);
    }
  };

  return (
    <div className="rs-auth-form">
      <FormAlert message={failure} />
      {header}
      <form noValidate onSubmit={submit} aria-label="Create an account">
        <TextField label="Full Name" name="name" autoComplete="name" value={values.name} onChange={update('name')} error={errors.name} />
        <TextField label="Email" type="email" name="email" autoComplete="email" value={values.email} onChange={update('email')} error={errors.email} />
        <PasswordField label="Password" name="password" autoComplete="new-password" value={values.password} onChange={update('password')} error={errors.password} />
        <PasswordField label="Confirm Password" name="confirmPassword" autoComplete="new-password" value={values.confirmPassword} onChange={update('confirmPassword')} error={errors.confirmPassword} />
        <button type="submit" className="rs-button rs-button--primary rs-button--block" disabled={submitting}>
          {submitting ? 'Creating account…' : 'Create Account'}
        </button>
      </form>
      {footer}
    </div>
  );
}
