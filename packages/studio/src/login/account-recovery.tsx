import { ACCOUNT_MESSAGES, PASSWORD_MIN_LENGTH, VALIDATION_MESSAGES as V } from '@reelsmith/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../api/api-client.js';
import { useApi } from '../services.js';
import { LogoMark } from '../ui/icons.js';
import { FormAlert, PasswordField, TextField } from '../ui/form-fields.js';
import './login.css';

function Notice({ message }: { message: string }) {
  return (
    <div role="status" className="rs-alert rs-alert--success">
      {message}
    </div>
  );
}

/** "Forgot password?" on the Sign In tab: asks for a single-use reset link by e-mail. */
export function ForgotPasswordPanel({ initialEmail = '', onBack }: { initialEmail?: string; onBack(): void }) {
  const api = useApi();
  const [email, setEmail] = useState(initialEmail);
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return setFailure(V.emailRequired);
    setSubmitting(true);
    setFailure(null);
    try {
      setSent((await api.call('forgotPassword', { body: { email }, token: null })).message);
    } catch (error) {
      setFailure(errorMessage(error, 'Could not send the reset link'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="rs-auth-form">
      <FormAlert message={failure} />
      {sent ? <Notice message={sent} /> : null}
      <form noValidate onSubmit={submit} aria-label="Reset password form">
        <p className="rs-login__hint">Enter your account's e-mail and we'll send you a link to set a new password.</p>
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className="rs-button rs-button--primary rs-button--block" disabled={submitting}>
          {submitting ? 'Sending…' : 'Send reset link'}
        </button>
      </form>
      <p className="rs-login__switch">
        <button type="button" className="rs-link-button" onClick={onBack}>
          Back to sign in
        </button>
      </p>
    </div>
  );
}

/** The sign-in page's card: the logo, a title (and a tagline under it), then the card's content. */
export function AccountCard({ title, tagline, children }: { title: string; tagline?: string; children: React.ReactNode }) {
  return (
    <div className="rs-login">
      <div className="rs-login__glow" aria-hidden="true" />
      <main className="rs-login__card">
        <header className="rs-login__brand">
          <LogoMark size={48} />
          <h1 className="rs-login__title">{title}</h1>
          {tagline ? <p className="rs-login__tagline">{tagline}</p> : null}
        </header>
        {children}
      </main>
    </div>
  );
}

/** /verify-email?token=… — the link from the verification e-mail. */
export function VerifyEmailPage() {
  const api = useApi();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // A link is single-use: StrictMode's second effect run must not spend it twice.
    if (started.current) return;
    started.current = true;
    api.call('verifyEmail', { body: { token }, token: null }).then(
      (response) => setResult({ ok: true, message: response.message }),
      (error: unknown) => setResult({ ok: false, message: errorMessage(error, ACCOUNT_MESSAGES.verifyLinkInvalid) }),
    );
  }, [api, token]);

  return (
    <AccountCard title="Verify your e-mail">
      {result === null ? (
        <p className="rs-login__hint">Checking your link…</p>
      ) : result.ok ? (
        <Notice message={result.message} />
      ) : (
        <FormAlert message={result.message} />
      )}
      <p className="rs-login__switch">
        <Link to="/login">Go to sign in</Link> · <Link to="/">Open the studio</Link>
      </p>
    </AccountCard>
  );
}

/** /reset-password?token=… — the link from the reset e-mail: a new password; API keys are revoked unless kept. */
export function ResetPasswordPage() {
  const api = useApi();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [keepApiKeys, setKeepApiKeys] = useState(false);
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!password) next.password = V.passwordRequired;
    else if (password.length < PASSWORD_MIN_LENGTH) next.password = V.passwordTooShort;
    if (!confirm) next.confirm = V.confirmPasswordRequired;
    else if (confirm !== password) next.confirm = V.passwordsDoNotMatch;
    setErrors(next);
    if (next.password || next.confirm) return;
    setSubmitting(true);
    setFailure(null);
    try {
      setDone((await api.call('resetPassword', { body: { token, password, keepApiKeys }, token: null })).message);
    } catch (error) {
      setFailure(errorMessage(error, ACCOUNT_MESSAGES.resetLinkInvalid));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AccountCard title="Set a new password">
      {done ? (
        <>
          <Notice message={done} />
          <p className="rs-login__switch">
            <Link to="/login">Sign in</Link>
          </p>
        </>
      ) : (
        <div className="rs-auth-form">
          <FormAlert message={failure} />
          <form noValidate onSubmit={submit} aria-label="New password form">
            <PasswordField
              label="New password"
              name="password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={errors.password}
            />
            <PasswordField
              label="Confirm new password"
              name="confirmPassword"
              autoComplete="new-password"
              value={confirm}
              onChange={(event) => setConfirm(event.target.value)}
              error={errors.confirm}
            />
            <label className="rs-checkbox">
              <input type="checkbox" checked={keepApiKeys} onChange={(event) => setKeepApiKeys(event.target.checked)} />
              Keep my API keys working (only if you alone know them)
            </label>
            <p className="rs-login__hint">
              Every signed-in session ends when the password changes, and every API key unless you keep them.
            </p>
            <button type="submit" className="rs-button rs-button--primary rs-button--block" disabled={submitting}>
              {submitting ? 'Saving…' : 'Set new password'}
            </button>
          </form>
        </div>
      )}
    </AccountCard>
  );
}
