// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { ACCOUNT_MESSAGES, MESSAGES, STORAGE_KEYS, VALIDATION_MESSAGES as V, type User } from '@reelsmith/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../platform.js';
import { renderStudio, testAdmin, testPlatform, testUser, type FakeHandler } from '../testing/render-studio.js';
import { basicSubscriptionBody } from '../testing/studio-fixtures.js';

afterEach(() => {
  cleanup();
  toast.remove();
});

const activeSubscription = basicSubscriptionBody(2);

function open({ user = testUser as User, subscription = null as unknown, extra = (() => undefined) as FakeHandler } = {}) {
  const handler: FakeHandler = (r) => {
    const custom = extra(r);
    if (custom) return custom;
    if (r.path === '/auth/profile' && r.method === 'GET') return { body: { user } };
    if (r.path === '/auth/profile' && r.method === 'PUT') return { body: { user: { ...user, ...(r.body as object) } } };
    if (r.path === '/auth/api-keys') return { body: { api_keys: [] } };
    if (r.path === '/payments/subscription') return { body: subscription ?? { subscription: null, usage: { videosThisMonth: 0 } } };
    if (r.path === '/api/videos') return { body: { jobs: [] } };
    if (r.path === '/api/analytics/events') return { body: { accepted: 1 } };
    return undefined;
  };
  const platform = testPlatform({
    storage: new MemoryStorage([
      [STORAGE_KEYS.authStore, JSON.stringify({ state: { user, token: 't', apiKey: null, isAuthenticated: true }, version: 0 })],
    ]),
  });
  const rendered = renderStudio({ path: '/settings', handler, platform });
  return { ...rendered, u: userEvent.setup() };
}

const input = (label: string) => screen.getByLabelText(label, { selector: 'input' });

describe('Settings', () => {
  it('shows the profile with a User or Admin chip', async () => {
    open({ user: testAdmin });
    const main = await screen.findByRole('main');
    expect(await within(main).findByText('Admin')).toBeInTheDocument();
    expect(input('Full Name')).toHaveValue(testAdmin.name);
    expect(input('Email')).toHaveValue(testAdmin.email);
  });

  it('validates and saves the profile', async () => {
    const { u, requests, services } = open();
    await screen.findByRole('button', { name: 'Save Profile' });
    await u.clear(input('Full Name'));
    await u.clear(input('Email'));
    await u.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(screen.getByText(V.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(V.emailRequired)).toBeInTheDocument();

    await u.type(input('Full Name'), 'Asha R');
    await u.type(input('Email'), 'asha.r@example.com');
    await u.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText(MESSAGES.profileUpdated)).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ name: 'Asha R', email: 'asha.r@example.com' });
    expect(services.authStore.getState().user?.name).toBe('Asha R');
  });

  it('shows the server message when the profile save fails', async () => {
    const { u } = open({
      extra: (r) =>
        r.method === 'PUT'
          ? { status: 409, body: { statusCode: 409, error: 'Conflict', message: 'An account with this email already exists' } }
          : undefined,
    });
    await u.click(await screen.findByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists');
  });

  it('says a new e-mail waits for its link, and offers to resend the verification of an unverified address', async () => {
    const unverified = { ...testUser, emailVerified: false } as User;
    const { u, requests } = open({
      user: unverified,
      extra: (r) => {
        if (r.method === 'PUT') return { body: { user: { ...unverified, pendingEmail: 'new@example.com' } } };
        if (r.path === '/auth/resend-verification')
          return { body: { success: true, message: ACCOUNT_MESSAGES.verificationSent(testUser.email) } };
        return undefined;
      },
    });
    await u.click(await screen.findByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText(ACCOUNT_MESSAGES.verificationSent(testUser.email))).toBeInTheDocument();
    expect(requests.some((r) => r.path === '/auth/resend-verification' && r.method === 'POST')).toBe(true);

    await u.clear(input('Email'));
    await u.type(input('Email'), 'new@example.com');
    await u.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText(ACCOUNT_MESSAGES.emailChangePending('new@example.com'))).toBeInTheDocument();
    expect(input('Email')).toHaveValue(testUser.email);
  });

  it('saves video defaults locally', async () => {
    const { u, platform } = open();
    await u.click(await screen.findByRole('tab', { name: 'Video Defaults' }));
    expect(screen.getByLabelText('Default Language')).toHaveValue('en');
    await u.selectOptions(screen.getByLabelText('Default Style'), 'Funny');
    await u.selectOptions(screen.getByLabelText('Default Duration'), '60 seconds');
    await u.selectOptions(screen.getByLabelText('Default Resolution'), '16:9 · Landscape');
    await u.click(screen.getByRole('button', { name: 'Save Defaults' }));
    expect(await screen.findByText(MESSAGES.defaultsSaved)).toBeInTheDocument();
    expect(JSON.parse(platform.storage.getItem(STORAGE_KEYS.videoDefaults) ?? '{}')).toEqual({
      defaultStyle: 'funny',
      defaultLanguage: 'en',
      defaultDuration: 60,
      defaultVisualStyle: 'cinematic',
      defaultResolution: '16:9',
      autoDownload: false,
      showProgress: true,
    });
  });

  it('labels the defaults as the studio form does', async () => {
    const { u } = open();
    await u.click(await screen.findByRole('tab', { name: 'Video Defaults' }));
    const labels = (field: string) =>
      within(screen.getByLabelText(field))
        .getAllByRole('option')
        .map((option) => option.textContent);
    expect(labels('Default Style')).toContain('Sci-fi');
    expect(labels('Default Visual Style')).toEqual([
      'Cinematic',
      'Dark horror',
      'Bright colorful',
      'Realistic photography',
      'Artistic painting',
      'Cartoon animation',
    ]);
    expect(labels('Default Resolution')).toEqual(['9:16 · Vertical', '16:9 · Landscape', '1:1 · Square']);
  });

  it('stores preference switches and hides the Danger Zone without an active subscription', async () => {
    const { u, platform } = open();
    await u.click(await screen.findByRole('tab', { name: 'Preferences' }));
    const autoDownload = screen.getByRole('switch', { name: 'Auto-download completed videos' });
    expect(autoDownload).not.toBeChecked();
    await u.click(autoDownload);
    expect(JSON.parse(platform.storage.getItem(STORAGE_KEYS.videoDefaults) ?? '{}')).toMatchObject({
      autoDownload: true,
      showProgress: true,
    });
    expect(screen.getByText('Preferences are stored locally in this browser.')).toBeInTheDocument();
    expect(screen.queryByText('Danger Zone')).toBeNull();
  });

  it('cancels an active subscription with a required reason', async () => {
    const { u, requests } = open({
      subscription: activeSubscription,
      extra: (r) =>
        r.path === '/payments/cancel-subscription'
          ? { body: { success: true, message: 'ok', subscription: { ...activeSubscription.subscription, status: 'cancelled' } } }
          : undefined,
    });
    await u.click(await screen.findByRole('tab', { name: 'Preferences' }));
    await u.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Confirm Cancellation' });
    expect(confirm).toBeDisabled();
    await u.type(within(dialog).getByLabelText('Reason for cancellation'), '   ');
    expect(confirm).toBeDisabled();
    expect(within(dialog).getByText(V.cancellationReasonRequired)).toBeInTheDocument();
    await u.type(within(dialog).getByLabelText('Reason for cancellation'), 'Too expensive');
    expect(confirm).toBeEnabled();
    await u.click(confirm);
    expect(await screen.findByText(MESSAGES.subscriptionCancelled)).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/payments/cancel-subscription')?.body).toEqual({ reason: 'Too expensive' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
