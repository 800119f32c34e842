import { MESSAGES, type User } from '@reelsmith/contracts';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from '../toaster.js';
import { errorMessage } from '../api/api-client.js';
import { useAnalytics, useAuth } from '../services.js';
import { FormAlert, PasswordField, TextField } from '../ui/form-fields.js';
import { validateSignIn, type FieldErrors, type SignInValues } from './validation.js';

export interface SignInFormProps {
  initialEmail?: string;
  onSignedIn(user: User): void;
  /** Shown above the form (the Google button and divider on the login screen). */
  header?: ReactNode;
  /** Shown under the submit button (the link to the sign-up tab). */
  footer?: ReactNode;
}

/** The e-mail sign-in form, shared by the login screen and the extension popup. */
export function SignInForm({ initialEmail = '', onSignedIn, header, footer }: SignInFormProps) {
  const login = useAuth((s) => s.login);
  const analytics = useAnalytics();
  const [values, setValues] = useState<SignInValues>({ email: initialEmail, password: '' });
  const [errors, setErrors] = useState<FieldErrors<keyof SignInValues>>({});
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const update = (field: keyof SignInValues) => (event: { target: { value: string } }) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (attempted) {
      const result = validateSignIn(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };

  // The failure toast of an earlier attempt would otherwise outlive the successful sign-in.
  const failureToastId = useRef<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    const result = validateSignIn(values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    setSubmitting(true);
    try {
      const user = await login(result.data);
      if (failureToastId.current) toast.dismiss(failureToastId.current);
      analytics.track({ type: 'login', method: 'email' });
      onSignedIn(user);
    } catch (error) {
      const message = errorMessage(error, MESSAGES.loginFailed);
      setFailure(message);
      failureToastId.current = toast.error(message);
      setSubmitting(false);
    }
  };

  return (
    <div className="rs-auth-form">
      <FormAlert message={failure} />
      {header}
      <form noValidate onSubmit={submit} aria-label="Sign in form">
        <TextField label="Email" type="email" name="email" autoComplete="email" value={values.email} onChange={update('email')} error={errors.email} />
        <PasswordField label="Password" name="password" autoComplete="current-password" value={values.password} onChange={update('password')} error={errors.password} />
        <button type="submit" className="rs-button rs-button--primary rs-button--block" disabled={submitting}>
          {submitting ? 'Signing in…' : 'Sign In'}
        </button>
      </form>
      {footer}
    </div>
  );
}
