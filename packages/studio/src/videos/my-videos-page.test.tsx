// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { MESSAGES, STORAGE_KEYS } from '@reelsmith/contracts';
import { cleanup, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../platform.js';
import { renderStudio, testPlatform, testUser, type FakeHandler } from '../testing/render-studio.js';
import { listedJob } from '../testing/studio-fixtures.js';

// The voice list waits 300 ms (debounce) before it loads; a busy machine needs more than the default 1 s.
configure({ asyncUtilTimeout: 4000 });

afterEach(() => {
  cleanup();
  toast.remove();
});

const job = listedJob;

const jobs = [
  job('1', 'Zebra facts', 'completed', '2026-11-20T10:00:00.000Z', { result: { videoUrl: '/output/1/zebra.mp4', filename: 'zebra.mp4' } }),
  job('2', 'Ancient Rome', 'processing', '2026-11-22T10:00:00.000Z'),
  job('3', '', 'failed', '2026-11-21T10:00:00.000Z', { error: 'Voice failed' }),
  job('4', 'Black holes', 'queued', '2026-11-19T10:00:00.000Z'),
  job('5', 'Mars', 'completed', '2026-11-18T10:00:00.000Z'),
];

function open(list: unknown[], openTab = vi.fn(), extra: FakeHandler = () => undefined) {
  const handler: FakeHandler = (request) => {
    const { path } = request;
    const answer = extra(request);
    if (answer) return answer;
    if (path === '/auth/profile') return { body: { user: testUser } };
    if (path === '/auth/api-keys') return { body: { api_keys: [] } };
    if (path === '/payments/subscription') return { body: { subscription: null, usage: { videosThisMonth: 0 } } };
    if (path === '/api/videos') return { body: { jobs: list } };
    if (path === '/api/videos/5') return { body: { job: list[4], result: null } };
    if (path === '/api/analytics/events') return { body: { accepted: 1 } };
    return undefined;
  };
  const platform = testPlatform({
    apiBaseUrl: 'http://api.test',
    navigation: { openTab, reload: () => undefined },
    storage: new MemoryStorage([
      [STORAGE_KEYS.authStore, JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 })],
    ]),
  });
  renderStudio({ path: '/videos', handler, platform });
  return { openTab, user: userEvent.setup() };
}

const titles = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);

describe('My Videos', () => {
  it('lists jobs newest first with status, fallback title, duration and language', async () => {
    open(jobs);
    expect(await screen.findByText('5 of 5 videos')).toBeInTheDocument();
    expect(titles()).toEqual(['Ancient Rome', 'Untitled Video', 'Zebra facts', 'Black holes', 'Mars']);
    expect(screen.getByRole('progressbar', { name: 'Progress of Ancient Rome' })).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getAllByText('30s')).toHaveLength(5);
    expect(screen.getByText('Voice failed')).toBeInTheDocument();
    // Preview and Download only for completed jobs.
    expect(screen.getAllByRole('button', { name: /^Preview / })).toHaveLength(2);
  });

  it('credits the photographers of a video made from stock photos, once each, with links', async () => {
    const credit = (author: string, source: 'pexels' | 'unsplash', id: string) => ({
      source,
      sourceId: `${source}:${id}`,
      author,
      authorUrl: `https://${source}.example/@${author}`,
      pageUrl: `https://${source}.example/${id}`,
    });
    open([
      job('1', 'Octopus hearts', 'completed', '2026-11-20T10:00:00.000Z', {
        result: {
          videoUrl: '/output/1/o.mp4',
          filename: 'o.mp4',
          credits: [
            credit('Ana', 'pexels', '1'),
            credit('Ben', 'pexels', '2'),
            credit('Ana', 'pexels', '3'),
            credit('Cara', 'unsplash', 'x'),
          ],
        },
      }),
    ]);
    const credits = await screen.findByText(/^Photos:/);
    expect(credits).toHaveTextContent('Photos: Ana, Ben on Pexels; Cara on Unsplash');
    expect(within(credits).getByRole('link', { name: 'Ana' })).toHaveAttribute('href', 'https://pexels.example/@Ana');
    expect(within(credits).getByRole('link', { name: 'Unsplash' })).toHaveAttribute('href', 'https://unsplash.com');
  });

  it('says what a video is based on, linking to the page it was made from', async () => {
    open([
      job('1', 'Lighthouses', 'completed', '2026-11-20T10:00:00.000Z', {
        params: {
          topic: 'Lighthouses',
          duration: 30,
          language: 'en',
          source: { kind: 'article', title: 'How lighthouses work', url: 'https://coast.example/l' },
        },
      }),
      job('2', 'Bees', 'processing', '2026-11-20T09:00:00.000Z', {
        params: { topic: 'Bees', duration: 30, language: 'en', source: { kind: 'article', url: 'https://bees.example/dance' } },
      }),
      job('3', 'Mars', 'completed', '2026-11-20T08:00:00.000Z'),
    ]);
    expect(await screen.findByRole('link', { name: 'How lighthouses work' })).toHaveAttribute('href', 'https://coast.example/l');
    // No title: the page's host names it.
    expect(screen.getByRole('link', { name: 'bees.example' })).toHaveAttribute('href', 'https://bees.example/dance');
    expect(screen.getAllByText(/^Based on:/)).toHaveLength(2);
  });

  it('says a researched video is based on Wikipedia, lists its credits and copies them as text', async () => {
    const attributions = [
      {
        kind: 'text',
        title: 'Octopus',
        author: 'Wikipedia contributors',
        license: 'CC BY-SA 4.0',
        licenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
        sourceUrl: 'https://en.wikipedia.org/wiki/Octopus',
      },
      {
        kind: 'image',
        title: 'Common octopus',
        author: 'Ana Reef',
        license: 'CC0',
        sourceUrl: 'https://commons.wikimedia.org/wiki/File:Common_octopus.jpg',
      },
    ];
    open([
      job('1', 'Why octopuses have three hearts', 'completed', '2026-11-20T10:00:00.000Z', {
        result: {
          videoUrl: '/output/1/o.mp4',
          filename: 'o.mp4',
          source: { kind: 'wikipedia', title: 'Octopus', url: 'https://en.wikipedia.org/wiki/Octopus' },
          attributions,
        },
      }),
    ]);
    expect(await screen.findByText(/^Based on Wikipedia:/)).toHaveTextContent('Based on Wikipedia: Octopus');
    const list = screen.getByRole('list', { name: 'Credits' });
    expect(list).toHaveTextContent('Text: Octopus by Wikipedia contributors, CC BY-SA 4.0');
    expect(list).toHaveTextContent('Picture: Common octopus by Ana Reef, CC0');
    expect(within(list).getByRole('link', { name: 'Common octopus' })).toHaveAttribute(
      'href',
      'https://commons.wikimedia.org/wiki/File:Common_octopus.jpg',
    );
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await userEvent.click(screen.getByText('Credits (2)'));
    await userEvent.click(screen.getByRole('button', { name: 'Copy credits' }));
    expect(writeText).toHaveBeenCalledWith(
      [
        'Text: "Octopus" by Wikipedia contributors, CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/), https://en.wikipedia.org/wiki/Octopus',
        'Picture: "Common octopus" by Ana Reef, CC0, https://commons.wikimedia.org/wiki/File:Common_octopus.jpg',
      ].join('\n'),
    );
  });

  it('credits the artwork set that generated pictures draw on, with its licence', async () => {
    const artwork = [{ name: 'Fluent Emoji', author: 'Microsoft', url: 'https://github.com/microsoft/fluentui-emoji', licence: 'MIT' }];
    open([
      job('1', 'Bicycles', 'completed', '2026-11-20T10:00:00.000Z', {
        result: { videoUrl: '/output/1/o.mp4', filename: 'o.mp4', artwork },
      }),
    ]);
    const credits = await screen.findByText(/^Artwork:/);
    expect(credits).toHaveTextContent('Artwork: Fluent Emoji by Microsoft (MIT)');
    expect(within(credits).getByRole('link', { name: 'Fluent Emoji' })).toHaveAttribute(
      'href',
      'https://github.com/microsoft/fluentui-emoji',
    );
  });

  it('says videos when the scenes are stock footage', async () => {
    const clip = (author: string, id: string) => ({
      source: 'pexels' as const,
      sourceId: `pexels-video:${id}`,
      author,
      authorUrl: `https://pexels.example/@${author}`,
      pageUrl: `https://pexels.example/video/${id}`,
    });
    open([
      job('1', 'Octopus hearts', 'completed', '2026-11-20T10:00:00.000Z', {
        result: { videoUrl: '/output/1/o.mp4', filename: 'o.mp4', credits: [clip('Eli', '901'), clip('Fay', '902')] },
      }),
      job('2', 'Coral', 'completed', '2026-11-19T10:00:00.000Z', {
        result: {
          videoUrl: '/output/2/o.mp4',
          filename: 'o.mp4',
          credits: [clip('Eli', '901'), { ...clip('Ana', '101'), sourceId: 'pexels:101' }],
        },
      }),
    ]);
    expect(await screen.findByText(/^Videos:/)).toHaveTextContent('Videos: Eli, Fay on Pexels');
    expect(screen.getByText(/^Photos and videos:/)).toHaveTextContent('Photos and videos: Eli, Ana on Pexels');
  });

  it('searches on topic, filters by status and sorts', async () => {
    const { user } = open(jobs);
    await screen.findByText('5 of 5 videos');
    await user.type(screen.getByLabelText('Search videos'), 'ro');
    expect(titles()).toEqual(['Ancient Rome']);
    expect(screen.getByText('1 of 5 videos')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Search videos'));

    await user.selectOptions(screen.getByLabelText('Status'), 'Completed');
    expect(titles()).toEqual(['Zebra facts', 'Mars']);
    await user.selectOptions(screen.getByLabelText('Sort'), 'Name A-Z');
    expect(titles()).toEqual(['Mars', 'Zebra facts']);
    await user.selectOptions(screen.getByLabelText('Sort'), 'Oldest First');
    expect(titles()).toEqual(['Mars', 'Zebra facts']);

    await user.type(screen.getByLabelText('Search videos'), 'nothing like this');
    expect(screen.getByRole('heading', { name: 'No videos match your filters' })).toBeInTheDocument();
  });

  it('previews a completed video in a dialog that plays it from the API host', async () => {
    const { user, openTab } = open(jobs);
    await user.click(await screen.findByRole('button', { name: 'Preview Zebra facts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Zebra facts' });
    const video = dialog.querySelector('video');
    expect(video).toHaveAttribute('src', 'http://api.test/output/1/zebra.mp4');
    expect(video).toHaveAttribute('controls');
    expect(openTab).not.toHaveBeenCalled();
    expect(await screen.findByText(MESSAGES.openingPreview)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close preview' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('downloads a completed video as an attachment', async () => {
    const { user } = open(jobs);
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    await user.click(await screen.findByRole('button', { name: 'Download Zebra facts' }));
    expect(clicked).toHaveLength(1);
    expect(clicked[0]?.href).toBe('http://api.test/output/1/zebra.mp4?download=1');
    expect(clicked[0]?.download).toBe('zebra.mp4');
    expect(await screen.findByText(MESSAGES.downloadStarted)).toBeInTheDocument();
    click.mockRestore();
  });

  it('says the file is not ready when no URL exists', async () => {
    const { user, openTab } = open(jobs);
    await user.click(await screen.findByRole('button', { name: 'Download Mars' }));
    expect(await screen.findByText(MESSAGES.fileNotReady)).toBeInTheDocument();
    expect(openTab).not.toHaveBeenCalled();
  });

  it('cancels an active job and shows it cancelled', async () => {
    const deletes: string[] = [];
    const { user } = open(jobs, vi.fn(), ({ method, path }) => {
      if (method !== 'DELETE') return undefined;
      deletes.push(path);
      return { body: { success: true, status: 'cancelled', message: 'Job cancelled' } };
    });
    await screen.findByText('5 of 5 videos');
    // Only active jobs can be cancelled.
    expect(screen.getAllByRole('button', { name: /^Cancel / }).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Cancel Ancient Rome',
      'Cancel Black holes',
    ]);
    await user.click(screen.getByRole('button', { name: 'Cancel Ancient Rome' }));
    expect(await screen.findByText(MESSAGES.jobCancelled)).toBeInTheDocument();
    expect(deletes).toEqual(['/api/videos/2']);
    const row = screen.getByRole('heading', { name: 'Ancient Rome' }).closest('li') as HTMLElement;
    expect(within(row).getByText('Cancelled')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /^Cancel / })).not.toBeInTheDocument();
  });

  it('shows the server message when cancelling fails, else the fallback', async () => {
    let withMessage = true;
    const { user } = open(jobs, vi.fn(), ({ method }) =>
      method === 'DELETE'
        ? withMessage
          ? { status: 409, body: { statusCode: 409, error: 'Conflict', message: 'The job already finished' } }
          : { status: 500, body: 'oops' }
        : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Cancel Ancient Rome' }));
    expect(await screen.findByText('The job already finished')).toBeInTheDocument();
    withMessage = false;
    await user.click(screen.getByRole('button', { name: 'Cancel Black holes' }));
    expect(await screen.findByText(MESSAGES.cancelJobFailed)).toBeInTheDocument();
    const rome = screen.getByRole('heading', { name: 'Ancient Rome' }).closest('li') as HTMLElement;
    expect(within(rome).getByText('Processing')).toBeInTheDocument();
  });

  it('labels a processing job with its step, or its progress when no step is known', async () => {
    open([
      job('7', 'Volcanoes', 'processing', '2026-11-22T09:00:00.000Z', { currentStep: 'voice', progress: 35 }),
      job('8', 'Tides', 'processing', '2026-11-22T08:00:00.000Z', { progress: 12 }),
    ]);
    const volcano = (await screen.findByRole('heading', { name: 'Volcanoes' })).closest('li') as HTMLElement;
    expect(within(volcano).getByText('Generating audio')).toBeInTheDocument();
    expect(within(volcano).getByText('35%')).toBeInTheDocument();
    const tides = screen.getByRole('heading', { name: 'Tides' }).closest('li') as HTMLElement;
    expect(within(tides).getByText('Creating story')).toBeInTheDocument();
  });

  it("shows every video's poster, lazily, in a box of the video's shape with its length on it", async () => {
    open([
      job('1', 'Zebra facts', 'completed', '2026-11-20T10:00:00.000Z', {
        result: {
          videoUrl: '/output/1/zebra.mp4',
          posterUrl: '/output/1/zebra.jpg',
          filename: 'zebra.mp4',
          durationSeconds: 31.4,
          width: 1080,
          height: 1920,
        },
      }),
      job('2', 'Wide rivers', 'completed', '2026-11-19T10:00:00.000Z', {
        params: { topic: 'Wide rivers', duration: 60, language: 'en', resolution: '16:9' },
        result: { videoUrl: '/output/2/r.mp4', posterUrl: '/output/2/r.jpg', filename: 'r.mp4', durationSeconds: 65 },
      }),
      job('3', 'Ancient Rome', 'processing', '2026-11-18T10:00:00.000Z'),
    ]);
    const row = (title: string) => screen.getByRole('heading', { name: title }).closest('li') as HTMLElement;
    await screen.findByText('3 of 3 videos');
    const zebra = row('Zebra facts').querySelector('img.rs-poster__image');
    expect(zebra).toHaveAttribute('src', 'http://api.test/output/1/zebra.jpg');
    expect(zebra).toHaveAttribute('loading', 'lazy');
    // Sized before it loads: a portrait box 54 x 96, a landscape one 171 x 96.
    expect(zebra).toHaveAttribute('width', '54');
    expect(zebra).toHaveAttribute('height', '96');
    expect(row('Zebra facts').querySelector('.rs-poster')).toHaveStyle({ width: '54px', height: '96px' });
    expect(within(row('Zebra facts')).getByLabelText('Length 0:31')).toHaveTextContent('0:31');
    expect(row('Wide rivers').querySelector('.rs-poster')).toHaveStyle({ width: '171px', height: '96px' });
    expect(within(row('Wide rivers')).getByLabelText('Length 1:05')).toBeInTheDocument();
    // No poster yet: the same box, empty, with the requested length.
    const rome = row('Ancient Rome');
    expect(rome.querySelector('img')).toBeNull();
    expect(rome.querySelector('.rs-poster')).toHaveStyle({ width: '54px', height: '96px' });
    expect(within(rome).getByLabelText('Length 0:30')).toBeInTheDocument();
  });

  it('offers one Download for a video with versions: the version menu downloads the chosen version', async () => {
    const versions = [
      { version: 1, videoUrl: '/output/a/v1.mp4', filename: 'v1.mp4', createdAt: '2026-11-20T10:00:00.000Z' },
      { version: 2, videoUrl: '/output/b/v2.mp4', filename: 'v2.mp4', createdAt: '2026-11-21T10:00:00.000Z' },
    ];
    const { user } = open(
      [
        job('1', 'Zebra facts', 'completed', '2026-11-20T10:00:00.000Z', {
          result: { videoUrl: '/output/b/v2.mp4', filename: 'v2.mp4', version: 2 },
        }),
      ],
      vi.fn(),
      ({ path }) => (path === '/api/videos/1/versions' ? { body: { versions } } : undefined),
    );
    const row = (await screen.findByRole('heading', { name: 'Zebra facts' })).closest('li') as HTMLElement;
    await within(row).findByRole('button', { name: 'Download version 2' });
    expect(within(row).getAllByRole('button', { name: /Download/ })).toHaveLength(1);
    expect(within(row).getByRole('button', { name: 'Preview Zebra facts' })).toBeInTheDocument();
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    await user.selectOptions(within(row).getByLabelText('Version'), '1');
    await user.click(within(row).getByRole('button', { name: 'Download version 1' }));
    expect(clicked[0]?.href).toBe('http://api.test/output/a/v1.mp4?download=1');
    click.mockRestore();
  });

  it('shows the post kit with one-click copies, saves an edit, and downloads the caption files', async () => {
    const post = {
      title: 'Zebra stripes',
      description: 'Zebras are striped.\n\nMade with AI',
      hashtags: ['#Zebra', '#Stripes', '#Shorts'],
    };
    const saved: unknown[] = [];
    const srt = '1\n00:00:00,000 --> 00:00:01,000\nZebras\n';
    const { user } = open(
      [
        job('1', 'Zebra facts', 'completed', '2026-11-20T10:00:00.000Z', {
          result: { videoUrl: '/output/1/zebra.mp4', filename: 'zebra.mp4', post },
        }),
      ],
      vi.fn(),
      (request) => {
        if (request.path === '/api/videos/1/post' && request.method === 'PUT') {
          saved.push(request.body);
          const body = request.body as typeof post;
          if (body.hashtags.includes('#bad!'))
            return {
              status: 400,
              body: { statusCode: 400, error: 'Bad Request', message: 'A hashtag is # and then letters', field: 'hashtags.1' },
            };
          return { body: { ...body, editedAt: '2026-11-27T10:00:00.000Z' } };
        }
        if (request.path === '/api/videos/1/captions') return { body: srt, contentType: 'application/x-subrip; charset=utf-8' };
        return undefined;
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Post kit and captions' }));
    expect(screen.getByText('Zebra stripes')).toBeInTheDocument();
    expect(screen.getByText('#Zebra #Stripes #Shorts')).toBeInTheDocument();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy hashtags' }));
    expect(writeText).toHaveBeenCalledWith('#Zebra #Stripes #Shorts');

    await user.click(screen.getByRole('button', { name: 'Edit post text' }));
    const tags = screen.getByLabelText('Hashtags');
    await user.clear(tags);
    await user.type(tags, 'zebra #bad!');
    await user.click(screen.getByRole('button', { name: 'Save post text' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A hashtag is # and then letters');
    await user.clear(tags);
    await user.type(tags, 'zebra, savanna');
    await user.click(screen.getByRole('button', { name: 'Save post text' }));
    expect(await screen.findByText('#zebra #savanna')).toBeInTheDocument();
    expect(saved.at(-1)).toMatchObject({ title: 'Zebra stripes', hashtags: ['#zebra', '#savanna'] });

    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const createObjectURL = vi.fn(() => 'blob:captions');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    await user.click(screen.getByRole('button', { name: 'SRT caption file' }));
    await vi.waitFor(() => expect(clicked[0]?.download).toBe('zebra.srt'));
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(await blob.text()).toBe(srt);
    click.mockRestore();
  });

  it('offers the caption files beside a video made with captions as files, without opening the post kit', async () => {
    const vtt = 'WEBVTT\n\n00:00.000 --> 00:01.000\nZebras\n';
    const asked: string[] = [];
    const { user } = open(
      [
        job('1', 'Zebra facts', 'completed', '2026-11-20T10:00:00.000Z', {
          params: { topic: 'Zebra facts', duration: 30, language: 'en', captions: 'file', enableCaptions: false },
          result: { videoUrl: '/output/1/zebra.mp4', filename: 'zebra.mp4' },
        }),
      ],
      vi.fn(),
      (request) => {
        if (request.path === '/api/videos/1/captions') {
          asked.push(request.query.get('format') ?? '');
          return { body: vtt, contentType: 'text/vtt; charset=utf-8' };
        }
        return undefined;
      },
    );
    expect(await screen.findByText('Captions as files (none drawn in the video)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Post kit' })).toHaveAttribute('aria-expanded', 'false');
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:captions'), revokeObjectURL: vi.fn() });
    await user.click(screen.getByRole('button', { name: 'VTT caption file' }));
    await vi.waitFor(() => expect(clicked[0]?.download).toBe('zebra.vtt'));
    expect(asked).toEqual(['vtt']);
    // Opening the post kit does not repeat the caption buttons.
    await user.click(screen.getByRole('button', { name: 'Post kit' }));
    expect(screen.getAllByRole('button', { name: 'VTT caption file' })).toHaveLength(1);
    click.mockRestore();
  });

  it('shows the empty state with a way back to the studio', async () => {
    open([]);
    const empty = await screen.findByRole('heading', { name: 'No videos yet' });
    const card = empty.closest('section');
    expect(card).not.toBeNull();
    expect(within(card as HTMLElement).getByRole('link', { name: 'Go to Video Studio' })).toHaveAttribute('href', '/');
  });
});
