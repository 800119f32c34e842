// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { GalleryResponse } from '@reelsmith/contracts';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeFetch, renderWithServices, TEST_API_BASE } from '../shared/voices/voices-test-harness.js';
import { ExampleGallery } from './example-gallery.js';

const example = (resolution: '9:16' | '16:9' | '1:1', slug: string) => ({
  resolution,
  title: `A ${slug} example`,
  videoUrl: `/gallery/${slug}-0123456789ab.mp4`,
  posterUrl: `/gallery/${slug}-0123456789ab.jpg`,
  width: 540,
  height: 960,
  durationSeconds: 30,
});
const show = (body: GalleryResponse) => renderWithServices(<ExampleGallery />, { fetch: fakeFetch(() => ({ body })).fetch });

afterEach(cleanup);

describe('the example gallery', () => {
  it('shows the ready examples as muted players that load nothing before play, and says which are still being made', async () => {
    show({ state: 'making', examples: [example('9:16', 'portrait')] });
    const region = await screen.findByRole('region', { name: 'See what it makes' });
    const video = await waitFor(() => {
      const found = region.querySelector('video');
      if (!found) throw new Error('the ready example has no player yet');
      return found;
    });
    expect(video).toHaveAccessibleName('Example video, 9:16 · Vertical: A portrait example');
    expect(video).toHaveAttribute('preload', 'none');
    expect(video).toHaveAttribute('poster', `${TEST_API_BASE}/gallery/portrait-0123456789ab.jpg`);
    expect(video).toHaveAttribute('src', `${TEST_API_BASE}/gallery/portrait-0123456789ab.mp4`);
    expect(video.muted).toBe(true);
    expect(screen.getByRole('img', { name: 'Example video, 16:9 · Landscape: Being made…' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Example video, 1:1 · Square: Being made…' })).toBeInTheDocument();
  });

  it('holds the three players’ place, empty, until the server answers, so the form below does not move when they arrive', async () => {
    let answer: (body: GalleryResponse) => void = () => undefined;
    const answered = new Promise<GalleryResponse>((resolve) => (answer = resolve));
    renderWithServices(<ExampleGallery />, { fetch: fakeFetch(async () => ({ body: await answered })).fetch });
    const region = screen.getByRole('region', { name: 'See what it makes' });
    expect(region).toHaveAttribute('aria-busy', 'true');
    expect(region.querySelectorAll('.rs-gallery__placeholder')).toHaveLength(3);
    expect(region.querySelector('video')).toBeNull();
    // An empty frame says nothing: no tile claims to be "being made" before the server says so.
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    answer({ state: 'ready', examples: [example('9:16', 'portrait'), example('16:9', 'landscape'), example('1:1', 'square')] });
    await expect.poll(() => region.querySelectorAll('video').length).toBe(3);
    expect(region).toHaveAttribute('aria-busy', 'false');
  });

  it('shows nothing when the server makes no examples, or none could be made', async () => {
    const { services } = show({ state: 'off', examples: [] });
    await services.queryClient
      .getQueryCache()
      .find({ queryKey: ['gallery'] })
      ?.fetch();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'See what it makes' })).not.toBeInTheDocument());
    cleanup();
    const failed = show({ state: 'failed', examples: [] });
    await failed.services.queryClient
      .getQueryCache()
      .find({ queryKey: ['gallery'] })
      ?.fetch();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'See what it makes' })).not.toBeInTheDocument());
  });
});
