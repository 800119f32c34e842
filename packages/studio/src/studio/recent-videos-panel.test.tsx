// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TrackedJob } from '../shared/jobs/tracked-jobs-store.js';
import { renderWithStudio, testPlatform } from '../testing/render-studio.js';
import { preloadRecentVideoRows, RecentVideosPanel } from './recent-videos-panel.js';

afterEach(cleanup);

const steps = Object.fromEntries(['setup', 'story', 'voice', 'images', 'video'].map((s) => [s, { status: 'completed', progress: 100 }]));
const finished = {
  id: 'v1',
  status: 'completed',
  progress: 100,
  currentStep: null,
  stepProgress: 100,
  params: { topic: 'Tide pools', duration: 30, language: 'en', resolution: '1:1' },
  created_at: '2026-11-20T10:00:00.000Z',
  result: { videoUrl: '/output/t/tide.mp4', posterUrl: '/output/t/tide.jpg', filename: 'tide.mp4', durationSeconds: 29.6 },
  error: null,
  steps,
} as unknown as TrackedJob;

describe('Recent Videos', () => {
  // The rows' code loads on demand; the studio fetches it beside the video list (studio-app.tsx), so it is there at first render.
  beforeAll(() => preloadRecentVideoRows([finished]));

  it("shows each video's poster in a box of its shape with its length, and Edit", () => {
    renderWithStudio(<RecentVideosPanel jobs={[finished]} connected />, { platform: testPlatform({ apiBaseUrl: 'http://api.test' }) });
    const item = screen.getByRole('heading', { name: 'Tide pools' }).closest('li') as HTMLElement;
    const image = item.querySelector('img.rs-poster__image');
    expect(image).toHaveAttribute('src', 'http://api.test/output/t/tide.jpg');
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(item.querySelector('.rs-poster')).toHaveStyle({ width: '72px', height: '72px' });
    expect(within(item).getByLabelText('Length 0:30')).toBeInTheDocument();
    expect(within(item).getByRole('link', { name: 'Edit Tide pools' })).toHaveAttribute('href', '/videos/v1/edit');
  });

  it('offers no Edit where the storyboard cannot open (the embedded studio)', () => {
    renderWithStudio(<RecentVideosPanel jobs={[finished]} connected editable={false} />);
    const item = screen.getByRole('heading', { name: 'Tide pools' }).closest('li') as HTMLElement;
    expect(within(item).getByRole('button', { name: 'Preview Tide pools' })).toBeInTheDocument();
    expect(within(item).queryByRole('link', { name: /Edit/ })).toBeNull();
  });
});
