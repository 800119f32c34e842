// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { STORAGE_KEYS } from '@reelsmith/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../platform.js';
import { renderStudio, testPlatform, testUser, type FakeHandler } from '../testing/render-studio.js';

afterEach(() => {
  cleanup();
  toast.remove();
  vi.restoreAllMocks();
});

const studioKey = {
  id: 'k0',
  name: 'Default key',
  prefix: 'rsk_studio00',
  created_at: '2026-01-01T00:00:00.000Z',
  last_used_at: null,
  studio: true,
};

let deleted = 0;

function open() {
  deleted = 0;
  let keys = [studioKey] as Array<Record<string, unknown>>;
  let hooks = [] as Array<Record<string, unknown>>;
  const handler: FakeHandler = (r) => {
    if (r.path === '/auth/profile') return { body: { user: testUser } };
    if (r.path === '/auth/api-keys' && r.method === 'GET') return { body: { api_keys: keys } };
    if (r.path === '/auth/api-keys' && r.method === 'POST') {
      const name = (r.body as { name: string }).name;
      keys = [...keys, { id: 'k1', name, prefix: 'rsk_newkey00', created_at: '2026-02-01T00:00:00.000Z', last_used_at: null }];
      return { body: { id: 'k1', name, key: 'rsk_newkey00-the-secret', prefix: 'rsk_newkey00', createdAt: '2026-02-01T00:00:00.000Z' } };
    }
    if (r.path === '/auth/api-keys/k1' && r.method === 'DELETE') {
      keys = keys.filter((k) => k.id !== 'k1');
      return { body: { success: true } };
    }
    if (r.path === '/api/webhooks' && r.method === 'GET') return { body: { webhooks: hooks } };
    if (r.path === '/api/webhooks' && r.method === 'POST') {
      const body = r.body as { url: string; events: string[] };
      if (body.url.includes('localhost'))
        return {
          status: 400,
          body: { statusCode: 400, error: 'Bad Request', message: 'Webhook URLs must reach a public address', field: 'url' },
        };
      hooks = [{ id: 'w1', url: body.url, events: body.events, createdAt: '2026-02-01T00:00:00.000Z' }];
      return { body: { id: 'w1', secret: 'whsec_the-secret' } };
    }
    if (r.path === '/api/webhooks/w1' && r.method === 'DELETE') {
      deleted += 1;
      hooks = [];
      return { body: { success: true } };
    }
    if (r.path === '/api/webhooks/w1/deliveries') {
      return {
        body: {
          deliveries: [
            {
              id: 'd1',
              eventId: 'evt',
              type: 'video.completed',
              status: 'delivered',
              attempts: [{ attempt: 1, at: '2026-02-01T00:00:00.000Z', statusCode: 200, error: null, durationMs: 12 }],
              nextAttemptAt: null,
              createdAt: '2026-02-01T00:00:00.000Z',
            },
          ],
        },
      };
    }
    if (r.path === '/payments/subscription') return { body: { subscription: null, usage: { videosThisMonth: 0 } } };
    if (r.path === '/api/videos') return { body: { jobs: [] } };
    if (r.path === '/api/analytics/events') return { body: { accepted: 1 } };
    return undefined;
  };
  const platform = testPlatform({
    storage: new MemoryStorage([
      [STORAGE_KEYS.authStore, JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 })],
    ]),
  });
  const rendered = renderStudio({ path: '/settings', handler, platform });
  return { ...rendered, u: userEvent.setup() };
}

describe('Settings → Developer', () => {
  it('creates a key, shows its secret once, lists it by prefix and revokes it', async () => {
    const { u } = open();
    await u.click(await screen.findByRole('tab', { name: 'Developer' }));
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Default key')).toBeInTheDocument();

    await u.click(screen.getByRole('button', { name: 'Create key' }));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    await u.type(screen.getByLabelText('Key name'), 'Production');
    await u.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('rsk_newkey00-the-secret')).toBeInTheDocument();
    expect(await within(table).findByText('Production')).toBeInTheDocument();
    expect(within(table).getByText('rsk_newkey00…')).toBeInTheDocument();
    expect(within(table).queryByText(/the-secret/)).toBeNull();
    await u.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('rsk_newkey00-the-secret')).toBeNull();

    // The product's dialog asks, never the browser's confirm(); Cancel keeps the key.
    const browserConfirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const row = within(table).getByText('Production').closest('tr')!;
    await u.click(within(row as HTMLElement).getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke “Production”?' });
    expect(dialog).toHaveTextContent('Anything using this key stops working at once.');
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(table).getByText('Production')).toBeInTheDocument();
    await u.click(within(row as HTMLElement).getByRole('button', { name: 'Revoke' }));
    await u.click(within(await screen.findByRole('dialog', { name: 'Revoke “Production”?' })).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(within(table).queryByText('Production')).toBeNull());
    expect(browserConfirm).not.toHaveBeenCalled();
  });

  it('adds a webhook, shows the server refusal and the signing secret once, and lists deliveries', async () => {
    const { u } = open();
    await u.click(await screen.findByRole('tab', { name: 'Developer' }));
    await u.type(await screen.findByLabelText('Endpoint URL'), 'http://localhost:9000/hook');
    await u.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByText('Webhook URLs must reach a public address')).toBeInTheDocument();

    await u.clear(screen.getByLabelText('Endpoint URL'));
    await u.type(screen.getByLabelText('Endpoint URL'), 'https://hooks.example.com/reelsmith');
    await u.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByText('whsec_the-secret')).toBeInTheDocument();
    expect(await screen.findByText('https://hooks.example.com/reelsmith')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Deliveries' }));
    expect(await screen.findByText(/1 attempt · last 200/)).toBeInTheDocument();

    // Deleting asks first, in the product's dialog; only the confirm button deletes.
    const deleteButton = screen.getByRole('button', { name: 'Delete webhook https://hooks.example.com/reelsmith' });
    await u.click(deleteButton);
    const dialog = await screen.findByRole('dialog', { name: 'Delete this webhook?' });
    expect(deleted).toBe(0);
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('https://hooks.example.com/reelsmith')).toBeInTheDocument();
    await u.click(deleteButton);
    await u.click(
      within(await screen.findByRole('dialog', { name: 'Delete this webhook?' })).getByRole('button', { name: 'Delete webhook' }),
    );
    await waitFor(() => expect(screen.queryByText('https://hooks.example.com/reelsmith')).toBeNull());
    expect(deleted).toBe(1);
  });
});
