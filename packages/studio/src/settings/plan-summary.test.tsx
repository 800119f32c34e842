// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { STORAGE_KEYS } from '@reelsmith/contracts';
import { cleanup, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../platform.js';
import { renderStudio, testPlatform, testUser } from '../testing/render-studio.js';
import { usageText } from './plan-summary.js';

// The Settings page loads lazily; a busy machine (the whole studio suite at once) needs more than the default 1 s.
configure({ asyncUtilTimeout: 4000 });

afterEach(() => {
  cleanup();
  toast.remove();
});

const plan = (id: string, name: string, price: number, videoLimit: number) => ({
  id,
  name,
  price,
  currency: 'INR',
  videoLimit,
  features: [],
  hasGst: true,
  gstAmount: price * 0.18,
  totalAmount: price * 1.18,
});
const plans = { currency: 'INR', plans: [plan('essentials_plan', 'Essentials', 199, 10), plan('pro_plan', 'Pro', 999, -1)] };
const subscriptionOf = (status: string, planId = 'essentials_plan', planName = 'Essentials', videoLimit = 10) => ({
  subscription: {
    planId,
    planName,
    status,
    cancelled_at: status === 'cancelled' ? '2026-11-10T00:00:00.000Z' : null,
    cancelledAt: null,
    startDate: '2026-11-01T00:00:00.000Z',
    endDate: '2026-12-01T00:00:00.000Z',
    videoLimit,
    currency: 'INR',
  },
  usage: { videosThisMonth: 3 },
});

function openSettings(subscription: unknown) {
  const rendered = renderStudio({
    path: '/settings',
    platform: testPlatform({
      storage: new MemoryStorage([
        [
          STORAGE_KEYS.authStore,
          JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 }),
        ],
      ]),
    }),
    handler: (r) => {
      if (r.path === '/auth/profile') return { body: { user: testUser } };
      if (r.path === '/auth/api-keys') return { body: { api_keys: [] } };
      if (r.path === '/payments/subscription') return { body: subscription };
      if (r.path === '/payments/plans') return { body: plans };
      if (r.path === '/api/videos') return { body: { jobs: [] } };
      if (r.path === '/api/analytics/events') return { body: { accepted: 1 } };
      return undefined;
    },
  });
  return { ...rendered, u: userEvent.setup() };
}

describe('Settings plan section', () => {
  it('shows the plan, its price and currency, the renewal date and the usage, with Upgrade and Cancel', async () => {
    const { u } = openSettings(subscriptionOf('active'));
    const section = await screen.findByRole('region', { name: 'Essentials plan' });
    expect(await within(section).findByText('₹199 per month · Indian Rupees (INR)')).toBeInTheDocument();
    expect(within(section).getByText('Renews on Dec 1, 2026')).toBeInTheDocument();
    expect(within(section).getByText('3 of 10 videos')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/pricing');
    await u.click(within(section).getByRole('button', { name: 'Cancel Plan' }));
    expect(await screen.findByRole('dialog', { name: 'Cancel Subscription' })).toBeInTheDocument();
  });

  it('shows the end date and Reactivate for a cancelled plan, and the free plan without one', async () => {
    openSettings(subscriptionOf('cancelled'));
    const section = await screen.findByRole('region', { name: 'Essentials plan' });
    expect(within(section).getByText('Cancelled - Access until Dec 1, 2026')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Reactivate Plan' })).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Cancel Plan' })).toBeNull();
    cleanup();
    openSettings({ subscription: null, usage: { videosThisMonth: 0 } });
    const free = await screen.findByRole('region', { name: 'Free plan' });
    expect(within(free).getByRole('link', { name: 'Upgrade' })).toBeInTheDocument();
  });

  it('words usage for limited and unlimited plans', () => {
    expect(usageText(3, 10)).toBe('3 of 10 videos');
    expect(usageText(1, -1)).toBe('1 video (unlimited)');
  });
});
