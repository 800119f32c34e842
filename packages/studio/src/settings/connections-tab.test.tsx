// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithStudio, testPlatform, type FakeHandler } from '../testing/render-studio.js';
import { PUBLISHING_MESSAGES, type Publication } from '@reelsmith/contracts';
import { announceConnectionsChanged } from './connections-channel.js';
import ConnectionsTab from './connections-tab.js';

configure({ asyncUtilTimeout: 4000 });
afterEach(() => {
  cleanup();
  toast.remove();
});

/** The YouTube row of GET /api/connections, connected to 'My Channel' or not. */
const youtubeConnection = (connected: boolean) => ({
  platform: 'youtube',
  connected,
  account: connected ? { id: 'UC1', name: 'My Channel' } : null,
  connectedAt: null,
  needsReconnect: false,
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
              youtubeConnection(connected),
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
    expect(within(list).getByText(/Until TikTok audits this server’s app, every post is private/)).toBeInTheDocument();

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

  it('says when YouTube was connected without the upload permission, and offers to reconnect', async () => {
    const handler: FakeHandler = (request) => {
      if (request.path === '/api/connections')
        return {
          body: {
            connections: [
              {
                ...youtubeConnection(true),
                problem: PUBLISHING_MESSAGES.youtubeMissingUploadScope,
                notice: PUBLISHING_MESSAGES.youtubeUnverifiedNotice,
              },
            ],
          },
        };
      if (request.path === '/api/publications') return { body: { publications: [] } };
      return undefined;
    };
    renderWithStudio(<ConnectionsTab />, { handler });
    const list = await screen.findByRole('list', { name: 'Connections' });
    expect(within(list).getByText(PUBLISHING_MESSAGES.youtubeMissingUploadScope)).toBeInTheDocument();
    expect(within(list).getByText(PUBLISHING_MESSAGES.youtubeUnverifiedNotice)).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Reconnect YouTube' })).toBeInTheDocument();
  });

  it('lists a scheduled YouTube video held private until its time, which can be kept private; and reloads when another tab connected', async () => {
    const at = new Date(Date.now() + 3 * 3600_000).toISOString();
    let connected = false;
    let connectionReads = 0;
    const held: Publication = {
      id: 'p9',
      videoId: 'v1',
      platform: 'youtube',
      status: 'published',
      title: 'Octopus hearts',
      description: '',
      hashtags: [],
      privacy: 'public',
      publishAt: at,
      progress: 100,
      url: 'https://www.youtube.com/watch?v=abc',
      error: null,
      attempts: 1,
      createdAt: at,
      updatedAt: at,
      publishedAt: new Date().toISOString(),
    };
    const handler: FakeHandler = (request) => {
      if (request.path === '/api/connections') {
        connectionReads += 1;
        return {
          body: {
            connections: [youtubeConnection(connected)],
          },
        };
      }
      if (request.path === '/api/publications') return { body: { publications: [held] } };
      if (request.path === '/api/publications/p9' && request.method === 'DELETE')
        return { body: { publication: { ...held, status: 'cancelled', warning: PUBLISHING_MESSAGES.youtubeKeptPrivate } } };
      return undefined;
    };
    const { requests } = renderWithStudio(<ConnectionsTab />, { handler });
    const user = userEvent.setup();
    const calendar = await screen.findByRole('heading', { name: 'Scheduled posts' });
    const section = calendar.closest('section')!;
    expect(await within(section).findByText(/Uploaded, private until .*: YouTube makes it public then\./)).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Keep private' }));
    await vi.waitFor(() =>
      expect(
        requests.some(
          (request) => request.method === 'DELETE' && request.path === '/api/publications/p9' && request.query.get('youtube') === 'keep',
        ),
      ).toBe(true),
    );

    // The consent ended in another tab, which announces it: this tab reads the connections again.
    const list = await screen.findByRole('list', { name: 'Connections' });
    expect(within(list).getByText('Not connected')).toBeInTheDocument();
    const reads = connectionReads;
    connected = true;
    announceConnectionsChanged();
    expect(await within(list).findByText('Connected as My Channel')).toBeInTheDocument();
    expect(connectionReads).toBeGreaterThan(reads);
  });
});
