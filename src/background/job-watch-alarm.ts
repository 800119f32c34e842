/**
 * While jobs run, an alarm wakes the worker every minute (after Chrome stops it when idle) so it
 * reconnects and re-reads the jobs over REST; no completion is missed.
 */
export const JOB_WATCH_ALARM = 'reelsmith-job-watch';
export const JOB_WATCH_PERIOD_MINUTES = 1;

export type AlarmsLike = Pick<typeof chrome.alarms, 'create' | 'clear' | 'get'>;

export async function syncJobWatchAlarm(alarms: AlarmsLike, activeJobCount: number): Promise<void> {
  if (activeJobCount === 0) {
    await alarms.clear(JOB_WATCH_ALARM);
    return;
  }
  // Re-creating an alarm restarts its period; an existing one is left to fire on schedule.
  if (await alarms.get(JOB_WATCH_ALARM)) return;
  await alarms.create(JOB_WATCH_ALARM, { periodInMinutes: JOB_WATCH_PERIOD_MINUTES, delayInMinutes: JOB_WATCH_PERIOD_MINUTES });
}
