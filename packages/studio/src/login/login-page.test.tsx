// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { MESSAGES, REGISTRATION_SUCCESS_TOAST_MS, STORAGE_KEYS, VALIDATION_MESSAGES as V } from '@reelsmith/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from '../toaster.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderStudio, testApiKey, testApiKeyListed, testUser, type FakeHandler } from '../testing/render-studio.js';

afterEach(() => {
  cleanup();
  toast.remove();
});

const server: FakeHandler = ({ method, path, body }) => {
  if (path === '/auth/login' && method === 'POST') {
    const { password } = body as { password: string };
    return password === 'secret123'
      ? { body: { user: testUser, token: 'token-1' } }
      : { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Invalid email or password' } };
  }
  if (path === '/auth/register' && method === 'POST') {
    const { email } = body as { email: string };
    if (email === 'taken@example.com')
      return { status: 409, body: { statusCode: 409, error: 'Conflict', message: 'An account with this email already exists' } };
    return { body: { user: { ...testUser, email }, token: 'token-reg', api_key: testApiKey } };
  }
  if (path === '/auth/logout') return { body: { success: true } };
  if (path === '/auth/api-keys') return { body: { api_keys: [testApiKeyListed] } };
  if (path === '/auth/config') return { body: { googleClientId: null } };
  if (path === '/api/analytics/events') return { body: { accepted: 1 } };
  return undefined;
};

async function openLogin() {
  const rendered = renderStudio({ path: '/login', handler: server });
  await screen.findByRole('tab', { name: 'Sign In' });
  return { ...rendered, user: userEvent.setup() };
}

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });

describe('Login screen', () => {
  it('shows the tagline and both tabs, Sign In first', async () => {
    await openLogin();
    expect(screen.getByText('AI-powered video generation for social media')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'false');
    // No Google client id configured: no Google button.
    expect(document.querySelector('.rs-google-button')).toBeNull();
  });

  describe('sign-in validation', () => {
    it('requires e-mail and password', async () => {
      const { user, requests } = await openLogin();
      await user.click(screen.getByRole('button', { name: 'Sign In' }));
      expect(screen.getByText(V.emailRequired)).toBeInTheDocument();
      expect(screen.getByText(V.passwordRequired)).toBeInTheDocument();
      expect(requests.some((r) => r.path === '/auth/login')).toBe(false);
    });

    it('rejects an e-mail without the basic pattern', async () => {
      const { user } = await openLogin();
      await user.type(field('Email'), 'not-an-email');
      await user.type(field('Password'), 'x');
      await user.click(screen.getByRole('button', { name: 'Sign In' }));
      expect(screen.getByText(V.emailInvalid)).toBeInTheDocument();
      expect(screen.queryByText(V.passwordRequired)).toBeNull();
    });

    it('clears a message once the field is fixed', async () => {
      const { user } = await openLogin();
      await user.click(screen.getByRole('button', { name: 'Sign In' }));
      await user.type(field('Email'), 'asha@example.com');
      expect(screen.queryByText(V.emailRequired)).toBeNull();
      expect(screen.getByText(V.passwordRequired)).toBeInTheDocument();
    });
  });

  describe('sign-up validation', () => {
    async function openSignUp() {
      const opened = await openLogin();
      await opened.user.click(screen.getByRole('tab', { name: 'Sign Up' }));
      await screen.findByRole('button', { name: 'Create Account' });
      return opened;
    }

    it('requires every field', async () => {
      const { user, requests } = await openSignUp();
      await user.click(screen.getByRole('button', { name: 'Create Account' }));
      expect(screen.getByText(V.nameRequired)).toBeInTheDocument();
      expect(screen.getByText(V.emailRequired)).toBeInTheDocument();
      expect(screen.getByText(V.passwordRequired)).toBeInTheDocument();
      expect(screen.getByText(V.confirmPasswordRequired)).toBeInTheDocument();
      expect(requests.some((r) => r.path === '/auth/register')).toBe(false);
    });

    it('enforces name length, e-mail pattern and password length', async () => {
      const { user } = await openSignUp();
      await user.type(field('Full Name'), 'A');
      await user.type(field('Email'), 'asha@nowhere');
      await user.type(field('Password'), '12345');
      await user.type(field('Confirm Password'), '12345');
      await user.click(screen.getByRole('button', { name: 'Create Account' }));
      expect(screen.getByText(V.nameTooShort)).toBeInTheDocument();
      expect(screen.getByText(V.emailInvalid)).toBeInTheDocument();
      expect(screen.getByText(V.passwordTooShort)).toBeInTheDocument();
    });

    it('blocks the call when the passwords do not match', async () => {
      const { user, requests } = await openSignUp();
      await user.type(field('Full Name'), 'Asha');
      await user.type(field('Email'), 'asha@example.com');
      await user.type(field('Password'), 'secret123');
      await user.type(field('Confirm Password'), 'secret124');
      await user.click(screen.getByRole('button', { name: 'Create Account' }));
      expect(screen.getByText(V.passwordsDoNotMatch)).toBeInTheDocument();
      expect(requests.some((r) => r.path === '/auth/register')).toBe(false);
    });

    it('shows the mismatch even while another field is invalid', async () => {
      const { user } = await openSignUp();
      await user.type(field('Password'), 'secret123');
      await user.type(field('Confirm Password'), 'other');
      await user.click(screen.getByRole('button', { name: 'Create Account' }));
      expect(screen.getByText(V.nameRequired)).toBeInTheDocument();
      expect(screen.getByText(V.passwordsDoNotMatch)).toBeInTheDocument();
    });
  });

  it('opens on Sign Up when asked with ?tab=signup', async () => {
    renderStudio({ path: '/login?tab=signup', handler: server });
    expect(await screen.findByRole('tab', { name: 'Sign Up', selected: true })).toBeInTheDocument();
  });

  it('toggles password visibility', async () => {
    const { user } = await openLogin();
    const password = field('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('resets both forms when switching tabs', async () => {
    const { user } = await openLogin();
    await user.type(field('Email'), 'typed@example.com');
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(field('Full Name'), 'Someone');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText(V.emailRequired)).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Sign In' }));
    expect(field('Email')).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(field('Full Name')).toHaveValue('');
    expect(screen.queryByText(V.emailRequired)).toBeNull();
  });

  it('after registration returns to Sign In with the e-mail prefilled, without signing in', async () => {
    const successToast = vi.spyOn(toast, 'success');
    const { user, requests, services, platform } = await openLogin();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(field('Full Name'), 'New Creator');
    await user.type(field('Email'), 'new@example.com');
    await user.type(field('Password'), 'secret123');
    await user.type(field('Confirm Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText(MESSAGES.accountCreated)).toBeInTheDocument();
    expect(successToast).toHaveBeenCalledWith(MESSAGES.accountCreated, { duration: REGISTRATION_SUCCESS_TOAST_MS });
    successToast.mockRestore();
    expect(screen.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
    expect(field('Email')).toHaveValue('new@example.com');
    expect(field('Password')).toHaveValue('');

    const register = requests.find((r) => r.path === '/auth/register');
    expect(register?.body).toEqual({ name: 'New Creator', email: 'new@example.com', password: 'secret123' });
    expect(services.authStore.getState().isAuthenticated).toBe(false);
    expect(services.authStore.getState().token).toBeNull();
    expect(platform.storage.getItem(STORAGE_KEYS.token)).toBeNull();

    // The sign-up form comes back empty.
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(field('Full Name')).toHaveValue('');
  });

  it('shows the server message at the top of a failed sign-up', async () => {
    const { user } = await openLogin();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(field('Full Name'), 'Taken');
    await user.type(field('Email'), 'taken@example.com');
    await user.type(field('Password'), 'secret123');
    await user.type(field('Confirm Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists');
  });

  it('shows the server message on a failed sign-in', async () => {
    const { user } = await openLogin();
    await user.type(field('Email'), 'asha@example.com');
    await user.type(field('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid email or password');
  });

  it('falls back to "Login failed" when the server gives no message', async () => {
    renderStudio({ path: '/login', handler: (r) => (r.path === '/auth/login' ? { status: 502, body: 'bad gateway' } : server(r)) });
    const user = userEvent.setup();
    await screen.findByRole('tab', { name: 'Sign In' });
    await user.type(field('Email'), 'asha@example.com');
    await user.type(field('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.loginFailed);
  });

  it('takes the failure toast of an earlier attempt away once the sign-in succeeds', async () => {
    const { user } = await openLogin();
    await user.type(field('Email'), 'asha@example.com');
    await user.type(field('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByRole('alert');
    await waitFor(() => expect(screen.getAllByText('Invalid email or password')).toHaveLength(2));
    await user.clear(field('Password'));
    await user.type(field('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: `Welcome back, ${testUser.name}!` })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Invalid email or password')).toBeNull());
  });

  it('signs in, records a login event and goes to the studio', async () => {
    const { user, services, requests } = await openLogin();
    await user.type(field('Email'), '  asha@example.com ');
    await user.type(field('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: `Welcome back, ${testUser.name}!` })).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/auth/login')?.body).toEqual({ email: 'asha@example.com', password: 'secret123' });
    await services.analytics.flush();
    const events = requests.filter((r) => r.path === '/api/analytics/events').flatMap((r) => (r.body as { events: unknown[] }).events);
    expect(events).toContainEqual({ type: 'login', method: 'email' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'My Videos' })).toBeInTheDocument();
    await waitFor(() => expect(services.authStore.getState().apiKey).toBe(testApiKey.key));
  });
});
