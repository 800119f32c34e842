import { generateVideoBodySchema, type VideoJob } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { newJob } from '@reelsmith/contracts';
import {
  jobIdFromNotification,
  NOTIFICATION_TEXTS,
  notificationIdFor,
  notificationTarget,
  notifyJobFinished,
  openNotifiedJob,
} from './job-notifier.js';
import { fakeNotifications, fakeTabs } from './testing/fake-chrome.js';

const params = generateVideoBodySchema.parse({ topic: 'Deep sea', style: 'curious', language: 'en', duration: 30, voice: 'v' });
const base = newJob('j1', params, new Date('2026-01-01T00:00:00Z'));
const done: VideoJob = {
  ...base,
  status: 'completed',
  progress: 100,
  result: { videoUrl: '/output/j1/deep-sea.mp4', filename: 'deep-sea.mp4' },
};
const failed: VideoJob = { ...base, id: 'j2', status: 'failed', error: 'Voice provider unavailable' };

describe('job notifications', () => {
  it('names notifications by job', () => {
    expect(jobIdFromNotification(notificationIdFor('abc'))).toBe('abc');
    expect(jobIdFromNotification('something-else')).toBeNull();
  });

  it('announces a completed and a failed job', async () => {
    const notifications = fakeNotifications();
    await notifyJobFinished(notifications as never, done, 'icon.png');
    await notifyJobFinished(notifications as never, failed, 'icon.png');
    expect(notifications.shown.get(notificationIdFor('j1'))).toMatchObject({
      title: NOTIFICATION_TEXTS.completedTitle,
      iconUrl: 'icon.png',
      type: 'basic',
    });
    expect(notifications.shown.get(notificationIdFor('j1'))?.message).toContain('Deep sea');
    expect(notifications.shown.get(notificationIdFor('j2'))).toMatchObject({
      title: NOTIFICATION_TEXTS.failedTitle,
      message: 'Video generation failed: Voice provider unavailable',
    });
  });

  it('opens the video on click, or the video list when there is none', async () => {
    expect(notificationTarget(done, 'http://api.test')).toBe('http://api.test/output/j1/deep-sea.mp4');
    expect(notificationTarget({ ...done, result: { videoUrl: 'https://cdn.test/v.mp4', filename: 'v.mp4' } }, 'http://api.test')).toBe(
      'https://cdn.test/v.mp4',
    );
    expect(notificationTarget(failed, 'http://api.test')).toBe('http://api.test/videos');
    expect(notificationTarget(undefined, 'http://api.test')).toBe('http://api.test/videos');

    const notifications = fakeNotifications();
    const tabs = fakeTabs();
    await notifyJobFinished(notifications as never, done, 'icon.png');
    const opened = await openNotifiedJob(
      { notifications: notifications as never, tabs: tabs as never },
      notificationIdFor('j1'),
      async (id) => (id === 'j1' ? done : undefined),
      'http://api.test',
    );
    expect(opened).toBe(true);
    expect(tabs.opened).toEqual(['http://api.test/output/j1/deep-sea.mp4']);
    expect(notifications.shown.size).toBe(0);
    expect(
      await openNotifiedJob(
        { notifications: notifications as never, tabs: tabs as never },
        'other',
        async () => undefined,
        'http://api.test',
      ),
    ).toBe(false);
  });
});
