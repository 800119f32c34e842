// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { PLATFORM_CONSTRAINTS, type Publication } from '@reelsmith/contracts';
import { cleanup, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithStudio, type FakeHandler } from '../testing/render-studio.js';
import PublishPanel, { PublishSelectedButton } from './publish-panel.js';

configure({ asyncUtilTimeout: 4000 });
afterEach(() => {
  cleanup();
  toast.remove();
});

const job = {
  id: 'v1',
  params: { topic: 'Octopus hearts', duration: 30, language: 'en', resolution: '16:9' as const },
  result: {
    videoUrl: '/output/t/o.mp4',
    filename: 'o.mp4',
    post: { title: 'Why octopuses have three hearts', description: 'Two pump to the gills.', hashtags: ['#octopus', '#ocean'] },
  },
};

const publication = (overrides: Partial<Publication>): Publication => ({
  id: 'p1',
  videoId: 'v1',
  platform: 'youtube',
  status: 'published',
  title: 'Why octopuses have three hearts',
  description: '',
  hashtags: [],
  privacy: 'public',
  publishAt: null,
  progress: 100,
  url: 'https://www.youtube.com/watch?v=abc123',
  error: null,
  attempts: 1,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  publishedAt: '2026-11-27T10:01:00.000Z',
  ...overrides,
});

const connection = (platform: 'youtube' | 'tiktok' | 'instagram', connected = true) => ({
  platform,
  connected,
  account: connected ? { id: `${platform}-1`, name: `${platform} account` } : null,
  connectedAt: connected ? '2026-11-27T09:00:00.000Z' : null,
  needsReconnect: false,
});

function open(publications: Publication[], extra: FakeHandler = () => undefined) {
  const handler: FakeHandler = (request) => {
    const answer = extra(request);
    if (answer) return answer;
    if (request.path === '/api/videos/v1/publications') return { body: { publications } };
    if (request.path === '/api/connections')
      return { body: { connections: [connection('youtube'), connection('tiktok'), connection('instagram', false)] } };
    return undefined;
  };
  const rendered = renderWithStudio(<PublishPanel job={job} title="Octopus hearts" />, { handler });
  return { ...rendered, user: userEvent.setup() };
}

describe('Publish panel', () => {
  it('lists the publications with their state, the link of a published one and the reason of a failed one', async () => {
    open([
      publication({}),
      publication({
        id: 'p2',
        platform: 'tiktok',
        status: 'failed',
        url: null,
        error: 'reconnect TikTok: its permission ended or was withdrawn',
      }),
    ]);
    const list = await screen.findByRole('list', { name: 'Publications of Octopus hearts' });
    expect(within(list).getByRole('link', { name: 'View on YouTube' })).toHaveAttribute('href', 'https://www.youtube.com/watch?v=abc123');
    expect(within(list).getByText('reconnect TikTok: its permission ended or was withdrawn')).toBeInTheDocument();
  });

  it('publishes to the chosen connected platforms with the post kit’s text, at a time in the creator’s time zone', async () => {
    let sent: unknown;
    const { user } = open([], (request) => {
      if (request.method === 'POST' && request.path === '/api/videos/v1/publish') {
        sent = request.body;
        return { status: 202, body: { publications: [] } };
      }
      return undefined;
    });
    await user.click(await screen.findByRole('button', { name: 'Publish Octopus hearts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish' });
    // Only connected accounts are offered.
    expect(within(dialog).queryByRole('checkbox', { name: /Instagram/ })).not.toBeInTheDocument();
    await user.click(await within(dialog).findByRole('checkbox', { name: /TikTok/ }));
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Why octopuses have three hearts');
    expect(within(dialog).getByLabelText('Hashtags')).toHaveValue('#octopus #ocean');
    expect(within(dialog).getByText(new RegExp(PLATFORM_CONSTRAINTS.tiktok.note.slice(0, 40)))).toBeInTheDocument();
    // A 16:9 video on TikTok is shown with bars: said before sending.
    expect(within(dialog).getByRole('list', { name: 'TikTok warnings' })).toHaveTextContent('16:9 is shown with bars');
    await user.click(within(dialog).getByRole('radio', { name: 'At a date and time' }));
    await user.type(within(dialog).getByLabelText(/^Date and time/), '2027-01-15T18:30');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await expect
      .poll(() => sent)
      .toEqual({
        platforms: [
          {
            platform: 'tiktok',
            title: 'Why octopuses have three hearts',
            description: 'Two pump to the gills.',
            hashtags: ['#octopus', '#ocean'],
            privacy: 'public',
            // Nothing allowed unless chosen (TikTok's UX guidelines).
            allowComments: false,
            allowDuet: false,
            allowStitch: false,
            publishAt: new Date('2027-01-15T18:30').toISOString(),
          },
        ],
      });
  });

  it('says a scheduled YouTube video will be public at its time, offers no privacy with a time, and lets a held one be kept private', async () => {
    let sent: unknown;
    const at = new Date(Date.now() + 3 * 3600_000).toISOString();
    const { user, requests } = open([publication({ id: 'p3', publishAt: at })], (request) => {
      if (request.method === 'POST' && request.path === '/api/videos/v1/publish') {
        sent = request.body;
        return { status: 202, body: { publications: [] } };
      }
      if (request.method === 'DELETE' && request.path === '/api/publications/p3')
        return { body: { publication: publication({ id: 'p3', status: 'cancelled', publishAt: at }) } };
      return undefined;
    });
    // Uploaded and held private by YouTube until its time: said, with what can still be done.
    const list = await screen.findByRole('list', { name: 'Publications of Octopus hearts' });
    expect(within(list).getByText(/^Uploaded, private until .*: YouTube makes it public then\.$/)).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Keep private' }));
    await expect.poll(() => requests.find((request) => request.method === 'DELETE')?.query.get('youtube')).toBe('keep');

    await user.click(screen.getByRole('button', { name: 'Publish Octopus hearts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish' });
    await user.click(await within(dialog).findByRole('checkbox', { name: /YouTube/ }));
    expect(within(dialog).getByLabelText('Privacy')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'At a date and time' }));
    expect(within(dialog).queryByLabelText('Privacy')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Date and time/), '2027-01-15T18:30');
    const when = new Date('2027-01-15T18:30').toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    expect(within(dialog).getByRole('status')).toHaveTextContent(`will be public at ${when}`);
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await expect
      .poll(() => sent)
      .toMatchObject({ platforms: [{ platform: 'youtube', privacy: 'public', publishAt: new Date('2027-01-15T18:30').toISOString() }] });
  });

  it('offers TikTok only the privacy the server allows (Private until the app is audited)', async () => {
    const { user } = open([], (request) =>
      request.path === '/api/connections'
        ? { body: { connections: [{ ...connection('tiktok'), privacyOptions: ['private'] }] } }
        : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Publish Octopus hearts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish' });
    await user.click(await within(dialog).findByRole('checkbox', { name: /TikTok/ }));
    const privacy = within(dialog).getByLabelText('Privacy');
    expect(
      within(privacy)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Private']);
  });

  it('sends a creator with nothing connected to Settings on the Connections tab', async () => {
    const { user } = open([], (request) =>
      request.path === '/api/connections' ? { body: { connections: [connection('youtube', false)] } } : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Publish Octopus hearts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish' });
    expect(await within(dialog).findByRole('link', { name: 'Connect one in Settings → Connections' })).toHaveAttribute(
      'href',
      '/settings?tab=connections',
    );
  });

  it('shows the server’s refusal in the dialog', async () => {
    const { user } = open([], (request) =>
      request.method === 'POST'
        ? {
            status: 409,
            body: { statusCode: 409, error: 'Conflict', message: 'This video is already published or on its way to YouTube.' },
          }
        : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Publish Octopus hearts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish' });
    await user.click(await within(dialog).findByRole('checkbox', { name: /YouTube/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Publish now' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This video is already published or on its way to YouTube.');
  });
});

describe('Publish selected', () => {
  it('publishes a batch with one choice of platforms and time, each video with its own post kit', async () => {
    const sent: Array<{ path: string; body: unknown }> = [];
    const handler: FakeHandler = (request) => {
      if (request.method === 'POST') {
        sent.push({ path: request.path, body: request.body });
        return { status: 202, body: { publications: [] } };
      }
      if (request.path === '/api/connections') return { body: { connections: [connection('youtube')] } };
      return undefined;
    };
    renderWithStudio(<PublishSelectedButton jobs={[job, { ...job, id: 'v2' }]} />, { handler });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Publish selected (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish 2 videos' });
    await user.click(await within(dialog).findByRole('checkbox', { name: /YouTube/ }));
    expect(within(dialog).queryByLabelText('Title')).not.toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText('Privacy'), 'unlisted');
    await user.click(within(dialog).getByRole('button', { name: 'Publish now' }));
    await expect
      .poll(() => sent)
      .toEqual([
        { path: '/api/videos/v1/publish', body: { platforms: [{ platform: 'youtube', privacy: 'unlisted' }] } },
        { path: '/api/videos/v2/publish', body: { platforms: [{ platform: 'youtube', privacy: 'unlisted' }] } },
      ]);
  });
});
