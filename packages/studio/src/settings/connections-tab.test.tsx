// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithStudio, testPlatform, type FakeHandler } from '../testing/render-studio.js';
import ConnectionsTab from './connections-tab.js';

configure({ asyncUtilTimeout: 4000 });
afterEach(() => {
  cleanup();
  toast.remove();
});

describe('Settings → Connections', () => {
  it('connects through the platform’s page, asks before disconnecting, and says when to reconnect', async () => {
    const openTab = vi.fn();
    let connected = true;
    const handler: FakeHandler = (request) => {
      if (request.path === '/api/connections' && request.method === 'GET')
        return {
          body: {
            connections: [
              {
                platform: 'youtube',
                connected,
                account: connected ? { id: 'UC1', name: 'My Channel' } : null,
                connectedAt: null,
                needsReconnect: false,
              },
              { platform: 'tiktok', connected: false, account: null, connectedAt: null, needsReconnect: false },
              { platform: 'instagram', connected: true, account: { id: '1', name: 'me' }, connectedAt: null, needsReconnect: true },
            ],
          },
        };
      if (request.path === '/api/connections/tiktok/start') return { body: { url: 'https://www.tiktok.com/v2/auth/authorize/?state=s' } };
      if (request.path === '/api/connections/youtube' && request.method === 'DELETE') {
        connected = false;
        return { body: { success: true } };
      }
      if (request.path === '/api/publications') return { body: { publications: [] } };
      return undefined;
    };
    const { requests } = renderWithStudio(<ConnectionsTab />, {
      handler,
      platform: testPlatform({ navigation: { openTab, reload: () => undefined } }),
    });
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Connections' });
    expect(within(list).getByText('Connected as My Channel')).toBeInTheDocument();
    expect(within(list).getByText(/Reconnect Instagram: its permission ended/)).toBeInTheDocument();
    expect(within(list).getByText(/Until the app passes TikTok’s audit, every post is private/)).toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: 'Connect TikTok' }));
    await vi.waitFor(() => expect(openTab).toHaveBeenCalledWith('https://www.tiktok.com/v2/auth/authorize/?state=s'));

    await user.click(within(list).getAllByRole('button', { name: 'Disconnect' })[0]!);
    const confirm = await screen.findByRole('dialog', { name: 'Disconnect YouTube?' });
    await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
    await vi.waitFor(() =>
      expect(requests.some((request) => request.method === 'DELETE' && request.path === '/api/connections/youtube')).toBe(true),
    );
    expect(await within(list).findByRole('button', { name: 'Connect YouTube' })).toBeInTheDocument();
  });
});
