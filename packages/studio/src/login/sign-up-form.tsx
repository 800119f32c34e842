import { MESSAGES } from '@reelsmith/contracts';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/api-client.js';
import { useAuth } from '../services.js';
import { FormAlert, PasswordField, TextField } from '../ui/form-fields.js';
import { useAuthForm } from './use-auth-form.js';
import { validateSignUp, type SignUpValues } from './validation.js';

export interface SignUpFormProps {
  /** Called with the registered e-mail; the account is created but not signed in. */
  onRegistered(email: string): void;
  header?: ReactNode;
  footer?: ReactNode;
}

const empty: SignUpValues = { name: '', email: '', password: '', confirmPassword: '' };

export function SignUpForm({ onRegistered, header, footer }: SignUpFormProps) {
  const register = useAuth((s) => s.register);
  const { values, errors, submitting, failure, update, submit } = useAuthForm({
    initial: empty,
    validate: validateSignUp,
    send: async ({ name, email, password }) => {
      // confirmPassword is a client-only field: register() sends name, e-mail and password.
      await register({ name, email, password });
      onRegistered(email);
    },
    failureMessage: (error) => errorMessage(error, MESSAGES.registrationFailed),
  });

  return (
    <div className="rs-auth-form">
      <FormAlert message={failure} />
      {header}
      <form noValidate onSubmit={(event) => void submit(event)} aria-label="Create an account">
        <TextField label="Full Name" name="name" autoComplete="name" value={values.name} onChange={update('name')} error={errors.name} />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={values.email}
          onChange={update('email')}
          error={errors.email}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={update('password')}
          error={errors.password}
        />
        <PasswordField
          label="Confirm Password"
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={update('confirmPassword')}
          error={errors.confirmPassword}
        />
        <button type="submit" className="rs-button rs-button--primary rs-button--block" disabled={submitting}>
          {submitting ? 'Creating account…' : 'Create Account'}
        </button>
      </form>
      {footer}
    </div>
  );
}
