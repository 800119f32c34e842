import { generateVideoBodySchema, newJob, type VideoJob } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { jobOutcomes, recentFinishedJobs } from './job-outcomes.js';

const params = generateVideoBodySchema.parse({ topic: 'Owls', style: 'curious', language: 'en', duration: 30, voice: 'v' });
const job = (id: string, status: VideoJob['status'], extra: Partial<VideoJob> = {}): VideoJob => ({
  ...newJob(id, params, new Date('2026-01-01T00:00:00Z')),
  status,
  ...extra,
});

describe('popup job outcomes', () => {
  it('words a failure with its reason and a cancel of a job that was running', () => {
    const before = [job('a', 'processing'), job('b', 'queued'), job('c', 'pending'), job('d', 'processing')];
    const after = [
      job('a', 'failed', { error: 'Story writer failed' }),
      job('b', 'cancelled'),
      job('c', 'failed'),
      job('d', 'completed', { result: { videoUrl: '/output/d.mp4', filename: 'd.mp4' } }),
    ];
    expect(jobOutcomes(before, after)).toEqual([
      { jobId: 'a', tone: 'error', text: 'Video generation failed: Story writer failed' },
      { jobId: 'b', tone: 'success', text: 'Job cancelled' },
      { jobId: 'c', tone: 'error', text: 'Video generation failed' },
    ]);
  });

  it('stays quiet about jobs that had already ended or were never seen running', () => {
    const failed = job('a', 'failed', { error: 'boom' });
    expect(jobOutcomes([failed], [failed])).toEqual([]);
    expect(jobOutcomes([], [failed, job('b', 'cancelled')])).toEqual([]);
    expect(jobOutcomes([job('a', 'processing')], [job('a', 'processing')])).toEqual([]);
  });

  it('keeps the two latest finished jobs, failed ones included, under the running ones', () => {
    const done = (id: string) => job(id, 'completed', { result: { videoUrl: `/output/${id}.mp4`, filename: `${id}.mp4` } });
    const list = [
      job('run', 'processing'),
      job('gone', 'cancelled'),
      job('bad', 'failed', { error: 'boom' }),
      job('noresult', 'completed'),
      done('ok1'),
      done('ok2'),
    ];
    expect(recentFinishedJobs(list).map((j) => j.id)).toEqual(['bad', 'ok1']);
  });
});
