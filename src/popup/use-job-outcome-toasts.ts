import type { VideoJob } from '@reelsmith/contracts';
import { useEffect, useRef } from 'react';
import { toast } from '@reelsmith/studio/popup';
import { jobOutcomes } from './job-outcomes.js';

/**
 * Toasts a failure or a cancel of a job the popup was showing as running, so it does not just drop
 * out of the list. The state the popup opened with is the baseline: older endings stay quiet.
 */
export function useJobOutcomeToasts(list: readonly VideoJob[]): void {
  const previous = useRef(list);
  useEffect(() => {
    const outcomes = jobOutcomes(previous.current, list);
    previous.current = list;
    for (const outcome of outcomes) {
      // One toast per job, however often the worker rewrites its state.
      const options = { id: `job-outcome-${outcome.jobId}` };
      if (outcome.tone === 'error') toast.error(outcome.text, options);
      else toast.success(outcome.text, options);
    }
  }, [list]);
}
