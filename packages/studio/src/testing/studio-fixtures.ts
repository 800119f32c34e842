/** The API's answers the studio's page tests serve again and again. */

const steps = Object.fromEntries(['setup', 'story', 'voice', 'images', 'video'].map((s) => [s, { status: 'pending', progress: 0 }]));

/** A job as the video list answers it: a completed one at 100 %, any other at 40 %, with no result unless `extra` gives one. */
export const listedJob = (id: string, topic: string, status: string, created: string, extra: Record<string, unknown> = {}) => ({
  id,
  status,
  progress: status === 'completed' ? 100 : 40,
  currentStep: null,
  stepProgress: 0,
  params: { topic, duration: 30, language: 'en' },
  created_at: created,
  result: null,
  error: null,
  steps,
  ...extra,
});

const voice = (id: string, name: string, gender: 'male' | 'female') => ({
  id,
  name,
  description: 'Warm narrator',
  gender,
  accent: 'American',
  age: 'Adult',
});

/** GET /api/voices for English: one male and one female offline voice. */
export const englishVoicesBody = {
  language: 'en',
  provider: 'offline',
  voices: { male: [voice('en-m-1', 'Arthur', 'male')], female: [voice('en-f-1', 'Bella', 'female')] },
};

/** GET /payments/subscription: an active Basic plan (30 videos a month, in rupees) with `videosThisMonth` used. */
export const basicSubscriptionBody = (videosThisMonth: number) => ({
  subscription: {
    planId: 'basic_plan',
    planName: 'Basic',
    status: 'active',
    cancelled_at: null,
    cancelledAt: null,
    startDate: '2026-11-01T00:00:00.000Z',
    endDate: '2026-12-01T00:00:00.000Z',
    videoLimit: 30,
    currency: 'INR',
  },
  usage: { videosThisMonth },
});
