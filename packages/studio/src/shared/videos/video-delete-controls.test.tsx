// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { STORAGE_KEYS } from '@reelsmith/contracts';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../platform.js';
import { renderStudio, testPlatform, testUser } from '../../testing/render-studio.js';
import { listedJob } from '../../testing/studio-fixtures.js';
import { videoCountText } from './video-list-model.js';

configure({ asyncUtilTimeout: 4000 });
afterEach(() => {
  cleanup();
  toast.remove();
});

const job = listedJob;

function openMyVideos(initial: ReturnType<typeof job>[], path = '/videos') {
  let list = [...initial];
  const rendered = renderStudio({
    path,
    platform: testPlatform({
      apiBaseUrl: 'http://api.test',
      storage: new MemoryStorage([
        [
          STORAGE_KEYS.authStore,
          JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 }),
        ],
      ]),
    }),
    handler: ({ method, path }) => {
      if (path === '/auth/profile') return { body: { user: testUser } };
      if (path === '/auth/api-keys') return { body: { api_keys: [] } };
      if (path === '/payments/subscription') return { body: { subscription: null, usage: { videosThisMonth: 0 } } };
      if (path === '/api/videos') return { body: { jobs: list } };
      if (path === '/api/analytics/events') return { body: { accepted: 1 } };
      const retry = /^\/api\/videos\/([^/]+)\/retry$/.exec(path);
      if (method === 'POST' && retry) {
        list = list.map((row) => (row.id === retry[1] ? { ...row, status: 'queued', error: null } : row));
        return { body: { jobId: retry[1], status: 'queued', message: 'Retrying the video from where it stopped' } };
      }
      const removed = /^\/api\/videos\/([^/]+)$/.exec(path);
      if (method === 'DELETE' && removed) {
        list = list.filter((row) => row.id !== removed[1]);
        return { body: { success: true, status: 'deleted', message: 'Video deleted' } };
      }
      return undefined;
    },
  });
  return { ...rendered, user: userEvent.setup() };
}

const deletes = (requests: { method: string; path: string }[]) => requests.filter((r) => r.method === 'DELETE').map((r) => r.path);
const jobs = [
  job('1', 'Zebra facts', 'completed', '2026-11-20T10:00:00.000Z'),
  job('2', 'Ancient Rome', 'processing', '2026-11-22T10:00:00.000Z'),
  job('3', 'Broken voice', 'failed', '2026-11-21T10:00:00.000Z', { error: 'The voice service is unavailable right now' }),
  job('4', 'Stopped', 'cancelled', '2026-11-19T10:00:00.000Z'),
  job('5', 'Mars', 'completed', '2026-11-18T10:00:00.000Z'),
];

describe('My Videos: delete, clear and retry', () => {
  it('deletes one video only after the confirmation, and the row goes', async () => {
    const { user, requests } = openMyVideos(jobs);
    await screen.findByText('5 of 5 videos');
    await user.click(screen.getByRole('button', { name: 'Delete Zebra facts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this video?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deletes(requests)).toEqual([]);
    expect(screen.getByRole('heading', { name: 'Zebra facts' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Zebra facts' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Zebra facts' })).not.toBeInTheDocument());
    expect(deletes(requests)).toEqual(['/api/videos/1']);
    expect(await screen.findByText('4 of 4 videos')).toBeInTheDocument();
  });

  it('deletes several selected videos at once; an active job cannot be selected', async () => {
    const { user, requests } = openMyVideos(jobs);
    await screen.findByText('5 of 5 videos');
    expect(screen.queryByRole('checkbox', { name: 'Select Ancient Rome' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select Zebra facts' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Mars' }));
    await user.click(screen.getByRole('button', { name: 'Delete selected (2)' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete 2 videos?' })).getByRole('button', { name: 'Delete 2 videos' }),
    );
    await screen.findByText('3 of 3 videos');
    expect(deletes(requests).sort()).toEqual(['/api/videos/1', '/api/videos/5']);
  });

  it('clears every failed and cancelled row after a confirmation', async () => {
    const { user, requests } = openMyVideos(jobs);
    await screen.findByText('5 of 5 videos');
    await user.click(screen.getByRole('button', { name: 'Clear failed and cancelled (2)' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Clear 2 failed and cancelled videos?' })).getByRole('button', {
        name: 'Clear them',
      }),
    );
    await screen.findByText('3 of 3 videos');
    expect(deletes(requests).sort()).toEqual(['/api/videos/3', '/api/videos/4']);
  });

  it('retries a failed video: the row is active again', async () => {
    const { user, requests } = openMyVideos(jobs);
    await screen.findByText('5 of 5 videos');
    await user.click(screen.getByRole('button', { name: 'Retry Broken voice' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Retry Broken voice' })).not.toBeInTheDocument());
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/videos/3/retry')).toBe(true);
    expect(screen.getByRole('button', { name: 'Cancel Broken voice' })).toBeInTheDocument();
  });

  it('offers no Retry for a video that crashed its server twice (the server would refuse it), in My Videos and Recent Videos', async () => {
    const crashed = job('6', 'Octopus hearts', 'failed', '2026-11-23T10:00:00.000Z', {
      error: 'This video stopped the server twice while it was being made, so it was not tried again.',
      retryable: false,
    });
    openMyVideos([crashed, ...jobs]);
    await screen.findByText('6 of 6 videos');
    expect(screen.getByText(/stopped the server twice/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry Octopus hearts' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry Broken voice' })).toBeInTheDocument();
    cleanup();
    openMyVideos([crashed, ...jobs], '/');
    const recent = await screen.findByRole('region', { name: 'Recent Videos' });
    await within(recent).findByRole('button', { name: 'Retry Broken voice' });
    expect(within(recent).queryByRole('button', { name: 'Retry Octopus hearts' })).not.toBeInTheDocument();
  });

  it("offers Retry and Clear failed in the studio's Recent Videos too", async () => {
    const { user, requests } = openMyVideos(jobs, '/');
    const recent = await screen.findByRole('region', { name: 'Recent Videos' });
    await within(recent).findByRole('button', { name: 'Retry Broken voice' });
    // The same words as My Videos: one failed and one cancelled row.
    await user.click(within(recent).getByRole('button', { name: 'Clear failed and cancelled (2)' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear them' }));
    await waitFor(() => expect(within(recent).queryByRole('button', { name: /^Clear / })).not.toBeInTheDocument());
    expect(deletes(requests).sort()).toEqual(['/api/videos/3', '/api/videos/4']);
  });

  it('calls cancelled videos cancelled, not failed, in Recent Videos and My Videos alike (issue 49)', async () => {
    const cancelled = [
      job('7', 'Comet', 'cancelled', '2026-11-24T10:00:00.000Z'),
      job('8', 'Volcano', 'cancelled', '2026-11-24T09:00:00.000Z'),
      job('9', 'Glacier', 'cancelled', '2026-11-24T08:00:00.000Z'),
      job('1', 'Zebra facts', 'completed', '2026-11-20T10:00:00.000Z'),
    ];
    openMyVideos(cancelled, '/');
    const recent = await screen.findByRole('region', { name: 'Recent Videos' });
    await within(recent).findByRole('button', { name: 'Clear cancelled (3)' });
    cleanup();
    const { user } = openMyVideos(cancelled);
    await user.click(await screen.findByRole('button', { name: 'Clear cancelled (3)' }));
    expect(await screen.findByRole('dialog', { name: 'Clear 3 cancelled videos?' })).toBeInTheDocument();
  });

  it('says "1 of 1 video", not "1 of 1 videos"', () => {
    expect(videoCountText(1, 1)).toBe('1 of 1 video');
    expect(videoCountText(0, 1)).toBe('0 of 1 video');
    expect(videoCountText(2, 5)).toBe('2 of 5 videos');
  });
});
