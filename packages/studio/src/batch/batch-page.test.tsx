// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { STORAGE_KEYS, type BatchDetail } from '@reelsmith/contracts';
import { act, cleanup, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobRealtimeClient, JobRealtimeHandlers } from '../shared/jobs/job-realtime.js';
import { MemoryStorage } from '../platform.js';
import { JobRealtimeProvider, renderWithStudio, testPlatform, testUser, type FakeHandler } from '../testing/render-studio.js';
import { englishVoicesBody } from '../testing/studio-fixtures.js';
import { checkRows, rowsFromCsv, rowsFromText, zipEntryName } from './batch-model.js';
import { BatchPage } from './batch-page.js';

// The voice list waits 300 ms (debounce) before it loads; a busy machine needs more than the default 1 s.
configure({ asyncUtilTimeout: 4000 });

afterEach(() => {
  cleanup();
  toast.remove();
});

const voicesBody = englishVoicesBody;
const counts = (over: Partial<BatchDetail['counts']> = {}) => ({
  total: 2,
  queued: 2,
  processing: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
  ...over,
});
const detail = (over: Partial<BatchDetail> = {}): BatchDetail => ({
  id: 'b1',
  name: 'Ocean week',
  status: 'queued',
  counts: counts(),
  percent: 0,
  createdAt: '2026-11-27T10:00:00.000Z',
  completedAt: null,
  rows: [
    { index: 0, jobId: 'j1', topic: 'Why octopuses have three hearts', status: 'queued', percent: 0, error: null },
    { index: 1, jobId: 'j2', topic: 'How bees talk by dancing', status: 'queued', percent: 0, error: null },
  ],
  ...over,
});

function open(handler: FakeHandler, path = '/batch') {
  let handlers: JobRealtimeHandlers | null = null;
  const realtime: JobRealtimeClient = {
    connect: (_token, h) => {
      handlers = h;
    },
    disconnect: () => {
      handlers = null;
    },
    subscribe: async () => true,
  };
  const storage = new MemoryStorage([
    [STORAGE_KEYS.authStore, JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 })],
  ]);
  const base: FakeHandler = (request) => {
    const answer = handler(request);
    if (answer) return answer;
    if (request.path === '/voices') return { body: voicesBody };
    if (request.path === '/payments/can-generate') return { body: { canGenerate: true, isFreeVideo: false, reason: null } };
    if (request.path === '/api/videos') return { body: { jobs: [] } };
    return undefined;
  };
  const rendered = renderWithStudio(
    <JobRealtimeProvider createRealtime={() => realtime}>
      <Routes>
        <Route path="/batch" element={<BatchPage />} />
      </Routes>
    </JobRealtimeProvider>,
    { handler: base, platform: testPlatform({ storage }), path },
  );
  return {
    ...rendered,
    user: userEvent.setup(),
    live: () => {
      if (!handlers) throw new Error('not connected');
      return handlers;
    },
  };
}

describe('batch rows', () => {
  it('reads a pasted list one topic a line and checks each row over the shared options', () => {
    const list = rowsFromText('Why cats purr\n\n  How bees dance  \n' + 'x'.repeat(501));
    expect(list.rows.map((row) => row.options.topic)).toEqual(['Why cats purr', 'How bees dance', 'x'.repeat(501)]);
    const defaults = { style: 'educational', language: 'en', duration: 30, voice: 'en-f-1' };
    const checked = checkRows(list, defaults);
    expect(checked.valid).toBeNull();
    expect(checked.invalidCount).toBe(1);
    expect(checked.rows[2]!.errors.map((error) => error.field)).toEqual(['topic']);
    expect(checkRows(rowsFromText('Why cats purr'), defaults).valid).toHaveLength(1);
    // A shared option's problem is the option's, not repeated on every row.
    const noVoice = checkRows(rowsFromText('Why cats purr'), { ...defaults, voice: '' });
    expect(noVoice.rows[0]!.errors).toEqual([]);
    expect(noVoice.valid).toBeNull();
  });

  it('reads a CSV with a BOM, its lines, its overrides, and refuses an unknown column', async () => {
    const csv = new File(['\uFEFFtopic,language,duration,url\nWhy cats purr,ja,60,\n,,,https://example.org/a\n'], 'list.csv', {
      type: 'text/csv',
    });
    const list = await rowsFromCsv(csv);
    expect(list.problem).toBeUndefined();
    expect(list.rows).toEqual([
      { options: { topic: 'Why cats purr', language: 'ja', duration: 60 }, line: 2 },
      { options: { source: { kind: 'url', url: 'https://example.org/a' } }, line: 3 },
    ]);
    const unknown = await rowsFromCsv(new File(['topic,colour\nCats,red\n'], 'bad.csv'));
    expect(unknown.problem).toMatch(/unknown column colour/);
    expect(zipEntryName(2, 12, 'cats/purr.mp4')).toBe('03-cats_purr.mp4');
  });
});

describe('Batch page', () => {
  it('checks the pasted rows before queueing, shows the server’s 400 against its row, then queues and follows the batch live', async () => {
    const sent: unknown[] = [];
    let refuse = true;
    const { user, live } = open(({ method, path, body }) => {
      if (method === 'POST' && path === '/api/batches') {
        sent.push(body);
        if (refuse) {
          refuse = false;
          return {
            status: 400,
            body: {
              statusCode: 400,
              error: 'Bad Request',
              message: '1 row is invalid, nothing was queued. Row 2: topic: Not allowed here.',
              invalidRows: [{ index: 1, errors: [{ field: 'topic', message: 'Not allowed here' }] }],
            },
          };
        }
        return { status: 202, body: detail() };
      }
      if (method === 'GET' && path === '/api/batches/b1') return { body: detail() };
      if (path === '/api/videos/j1/status')
        return {
          body: {
            id: 'j1',
            status: 'processing',
            progress: 40,
            currentStep: 'voice',
            stepProgress: 10,
            params: { topic: 'Why octopuses have three hearts', duration: 30, language: 'en' },
            created_at: '2026-11-27T10:00:00.000Z',
            result: null,
            error: null,
            steps: Object.fromEntries(['setup', 'story', 'voice', 'images', 'video'].map((s) => [s, { status: 'pending', progress: 0 }])),
          },
        };
      return undefined;
    });

    await user.type(await screen.findByLabelText(/Topics, one a line/), `Why octopuses have three hearts\n${'y'.repeat(501)}`);
    const rows = screen.getByRole('list', { name: 'Rows' });
    expect(within(rows).getAllByRole('listitem').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByText(/1 of 2 rows ready, 1 to fix/)).toBeInTheDocument();
    expect(rows).toHaveTextContent('topic: Topic must be at most 500 characters');

    await user.selectOptions(screen.getByLabelText('Language'), 'en');
    await user.click(await screen.findByRole('radio', { name: 'Bella' }));
    await user.click(screen.getByRole('button', { name: /Queue 2 videos/ }));
    // Nothing goes to the server while a row is invalid.
    expect(sent).toEqual([]);
    expect(screen.getByRole('alert')).toHaveTextContent('Nothing was queued: fix the rows marked Fix first.');

    const topics = screen.getByLabelText(/Topics, one a line/);
    await user.clear(topics);
    await user.type(topics, 'Why octopuses have three hearts\nHow bees talk by dancing');
    await user.type(screen.getByLabelText(/Batch name/), 'Ocean week');
    await user.click(screen.getByRole('button', { name: /Queue 2 videos/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('1 row is invalid, nothing was queued.');
    expect(screen.getByRole('list', { name: 'Rows' })).toHaveTextContent('topic: Not allowed here');
    expect(sent[0]).toMatchObject({
      name: 'Ocean week',
      defaults: { style: expect.any(String), language: 'en', voice: 'en-f-1', enableCaptions: false },
      rows: [{ topic: 'Why octopuses have three hearts' }, { topic: 'How bees talk by dancing' }],
    });

    // The server's verdict stands until the list changes (an edited row is checked again).
    await user.click(screen.getByRole('button', { name: /Queue 2 videos/ }));
    expect(sent).toHaveLength(1);
    await user.type(topics, '{Enter}');
    await user.click(screen.getByRole('button', { name: /Queue 2 videos/ }));
    const progress = await screen.findByRole('list', { name: 'Videos of the batch' });
    expect(within(progress).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Download all (0)' })).toBeDisabled();

    // A job event over the socket moves its row at once.
    act(() => live().progress({ jobId: 'j1', status: 'processing', progress: 40, step: 'voice', stepProgress: 10 }));
    expect(await screen.findByRole('progressbar', { name: 'Progress of Why octopuses have three hearts' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    );
    expect(screen.getByRole('button', { name: 'Cancel the rest' })).toBeInTheDocument();
  });

  it("links a plan's refusal to the plans (issue 49)", async () => {
    const { user } = open(({ method, path }) =>
      method === 'POST' && path === '/api/batches'
        ? {
            status: 403,
            body: { statusCode: 403, error: 'Forbidden', message: 'Batches are for paid plans: upgrade to queue many videos at once.' },
          }
        : undefined,
    );
    await user.type(await screen.findByLabelText(/Topics, one a line/), 'Why octopuses have three hearts');
    await user.selectOptions(screen.getByLabelText('Language'), 'en');
    await user.click(await screen.findByRole('radio', { name: 'Bella' }));
    await user.click(screen.getByRole('button', { name: /Queue 1 video/ }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Batches are for paid plans');
    expect(within(alert).getByRole('button', { name: 'See the plans' })).toBeInTheDocument();
  });
});
