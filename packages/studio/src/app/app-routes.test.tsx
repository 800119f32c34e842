// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { STORAGE_KEYS, type User } from '@reelsmith/contracts';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../platform.js';
import { renderStudio, testAdmin, testPlatform, testUser, type FakeHandler } from '../testing/render-studio.js';

afterEach(cleanup);

function signedInPlatform(user: User) {
  return testPlatform({
    storage: new MemoryStorage([
      [STORAGE_KEYS.authStore, JSON.stringify({ state: { user, token: 'token-1', apiKey: 'rk', isAuthenticated: true }, version: 0 })],
      [STORAGE_KEYS.token, 'token-1'],
    ]),
  });
}

const job = (id: string, status: string) => ({
  id,
  status,
  progress: 10,
  currentStep: 'story',
  stepProgress: 50,
  params: { topic: 'Topic', duration: 30, language: 'en' },
  created_at: '2026-11-22T00:00:00.000Z',
  result: null,
  error: null,
  steps: Object.fromEntries(['setup', 'story', 'voice', 'images', 'video'].map((s) => [s, { status: 'pending', progress: 0 }])),
});

function serverFor(user: User): FakeHandler {
  return ({ path }) => {
    if (path === '/auth/profile') return { body: { user } };
    if (path === '/auth/logout') return { body: { success: true } };
    if (path === '/payments/subscription') return { body: { subscription: null, usage: { videosThisMonth: 0 } } };
    if (path === '/auth/api-keys') return { body: { api_keys: [] } };
    if (path === '/api/videos')
      return { body: { jobs: [job('1', 'processing'), job('2', 'queued'), job('3', 'completed'), job('4', 'failed')] } };
    if (path === '/api/analytics/events') return { body: { accepted: 1 } };
    return undefined;
  };
}

async function visit(path: string, user: User | null) {
  const rendered = user ? renderStudio({ path, platform: signedInPlatform(user), handler: serverFor(user) }) : renderStudio({ path });
  // The splash waits for the signed-in studio's parts and pages load on demand (lazy-routes.tsx):
  // module loads that a busy machine's test run takes seconds to transform the first time.
  await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading Reelsmith' })).toBeNull(), { timeout: 10_000 });
  await waitFor(() => expect(document.querySelector('.rs-page[aria-busy="true"]')).toBeNull(), { timeout: 10_000 });
  return rendered;
}

/** The avatar's menu loads on first use: a click on its stand-in fetches it and opens it. */
async function accountMenuButton() {
  await waitFor(() => expect(screen.getByRole('button', { name: 'Account menu' })).toBeEnabled(), { timeout: 10_000 });
  return screen.getByRole('button', { name: 'Account menu' });
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;

describe('route guards', () => {
  it.each([
    ['/', 'Create AI videos for social media'],
    ['/videos', 'Create AI videos for social media'],
    ['/admin', 'Create AI videos for social media'],
    ['/pricing', 'Choose Your Perfect Plan'],
  ])('visitor on %s sees %s', async (path, expected) => {
    await visit(path, null);
    expect(heading()).toBe(expected);
  });

  it('visitor on /login sees the login screen', async () => {
    await visit('/login', null);
    expect(screen.getByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
  });

  it.each([
    ['/', `Welcome back, ${testUser.name}!`],
    ['/studio', `Welcome back, ${testUser.name}!`],
    ['/generate', `Welcome back, ${testUser.name}!`],
    ['/videos', 'My Videos'],
    ['/files', 'My Videos'],
    ['/batch', 'Batch'],
    ['/settings', 'Settings'],
    ['/pricing', 'Choose Your Perfect Plan'],
    ['/admin', `Welcome back, ${testUser.name}!`],
    ['/admin/users', `Welcome back, ${testUser.name}!`],
    ['/login', `Welcome back, ${testUser.name}!`],
    ['/unknown', `Welcome back, ${testUser.name}!`],
  ])('user on %s sees %s', async (path, expected) => {
    await visit(path, testUser);
    await waitFor(() => expect(heading()).toBe(expected), { timeout: 10_000 });
  });

  it.each([
    ['/admin', 'Admin Dashboard'],
    ['/admin/users', 'User Management'],
    ['/admin/health', 'System Health'],
  ])('admin on %s sees %s', async (path, expected) => {
    await visit(path, testAdmin);
    expect(heading()).toBe(expected);
  });

  it('sets the page title and records a page view per path', async () => {
    const { services, requests } = await visit('/files', testUser);
    expect(document.title).toBe('My Videos · Reelsmith');
    await act(() => services.analytics.flush());
    const events = requests.filter((r) => r.path === '/api/analytics/events').flatMap((r) => (r.body as { events: unknown[] }).events);
    expect(events).toContainEqual({ type: 'page_view', path: '/files', title: 'My Videos' });
  });
});

describe('shell', () => {
  it('shows the signed-out menu, visitor buttons and legal links', async () => {
    const { services, requests } = await visit('/', null);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Studio', 'Pricing']);
    expect(screen.getByText('One free video included with signup. No credit card required.')).toBeInTheDocument();
    const signUp = screen.getByRole('link', { name: 'Sign Up Free' });
    expect(signUp).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    const terms = screen.getByRole('link', { name: 'Terms & Conditions' });
    expect(terms).toHaveAttribute('href', '/policies/terms-conditions.html');
    expect(terms).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact.html');
    expect(screen.queryByLabelText(/Active jobs/)).toBeNull();

    await userEvent.setup().click(signUp);
    await act(() => services.analytics.flush());
    const events = requests.filter((r) => r.path === '/api/analytics/events').flatMap((r) => (r.body as { events: unknown[] }).events);
    expect(events).toContainEqual({ type: 'click', name: 'sidebar_sign_up_free', path: '/' });
  });

  it('shows the signed-in menu with Studio highlighted on /generate, no admin section for a user', async () => {
    await visit('/generate', testUser);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Studio', 'My Videos', 'Batch', 'Pricing', 'Settings']);
    expect(within(nav).getByRole('link', { name: 'Studio' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByText('Admin Dashboard')).toBeNull();
    expect(screen.getByText('AI Video Platform')).toBeInTheDocument();
    expect(screen.getByText(testUser.email)).toBeInTheDocument();
  });

  it('shows the admin section to an admin', async () => {
    await visit('/', testAdmin);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'User Management' })).toHaveAttribute('href', '/admin/users');
    expect(within(nav).getByRole('link', { name: 'System Health' })).toHaveAttribute('href', '/admin/health');
  });

  it('counts active jobs and fixes notifications at 0', async () => {
    await visit('/', testUser);
    expect(await screen.findByLabelText('Active jobs: 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Notifications 0' })).toBeInTheDocument();
  });

  it('shows 0 active jobs when the list fails', async () => {
    renderStudio({
      path: '/',
      platform: signedInPlatform(testUser),
      handler: (r) =>
        r.path === '/api/videos' ? { status: 500, body: { statusCode: 500, error: 'x', message: 'down' } } : serverFor(testUser)(r),
    });
    expect(await screen.findByLabelText('Active jobs: 0')).toBeInTheDocument();
  });

  it('logs out from the avatar menu', async () => {
    const { services } = await visit('/settings', testUser);
    const user = userEvent.setup();
    await user.click(await accountMenuButton());
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }, { timeout: 10_000 }));
    await waitFor(() => expect(heading()).toBe('Create AI videos for social media'));
    expect(services.authStore.getState().isAuthenticated).toBe(false);
  });

  it('opens Profile & Settings from the avatar menu', async () => {
    await visit('/', testUser);
    const user = userEvent.setup();
    await user.click(await accountMenuButton());
    await user.click(await screen.findByRole('menuitem', { name: 'Profile & Settings' }, { timeout: 10_000 }));
    await waitFor(() => expect(heading()).toBe('Settings'));
  });

  it('opens the navigation drawer from the menu button', async () => {
    await visit('/', testUser);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open navigation' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByRole('link', { name: 'My Videos' })).toBeInTheDocument();
  });
});
