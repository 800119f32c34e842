import { describe, expect, it } from 'vitest';
import { JOB_WATCH_ALARM, syncJobWatchAlarm } from './job-watch-alarm.js';
import { fakeAlarms } from './testing/fake-chrome.js';

describe('syncJobWatchAlarm', () => {
  it('runs a one-minute alarm only while jobs are active', async () => {
    const alarms = fakeAlarms();
    await syncJobWatchAlarm(alarms as never, 1);
    expect(alarms.alarms.get(JOB_WATCH_ALARM)).toMatchObject({ periodInMinutes: 1 });
    const first = alarms.alarms.get(JOB_WATCH_ALARM);
    await syncJobWatchAlarm(alarms as never, 2);
    expect(alarms.alarms.get(JOB_WATCH_ALARM)).toBe(first);
    await syncJobWatchAlarm(alarms as never, 0);
    expect(alarms.alarms.has(JOB_WATCH_ALARM)).toBe(false);
  });
});
