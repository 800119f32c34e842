import { isActiveJobStatus, jobFailureText, PROGRESS_TOAST_MS } from '@reelsmith/contracts';
import { toast } from '../../toaster.js';
import type { ApiClient } from '../../api/api-client.js';
import type { KeyValueStorage, Platform } from '../../platform.js';
import { loadVideoDefaults } from '../../preferences/video-defaults.js';
import { resolveVideoFileUrl, triggerDownload, videoFilename } from './video-file.js';
import { progressToastText } from './job-labels.js';
import type { JobEventEffects } from './job-service.js';

/**
 * The job toasts: one progress toast per job (its id is the job id, so each update
 * replaces it) while progress is below 100, and the failure message. The Settings preferences
 * decide whether progress toasts show and whether a finished video downloads itself.
 */
/**
 * A phone's screen (the studio's one-column layout): a progress toast there covered what the creator
 * was reading ("Finalizing video: 94%" over the form), while the same progress shows in Recent Videos
 * and the top bar's count. Failures and the rest still toast.
 */
const PHONE_QUERY = '(max-width: 640px)';
const onPhone = (): boolean => typeof matchMedia === 'function' && matchMedia(PHONE_QUERY).matches;

export function createJobToasts({
  storage,
  api,
  platform,
}: {
  storage: KeyValueStorage;
  api: ApiClient;
  platform: Pick<Platform, 'apiBaseUrl'>;
}): JobEventEffects {
  return {
    progress(event, job) {
      if (!isActiveJobStatus(job.status)) return;
      if (job.progress >= 100 || !loadVideoDefaults(storage).showProgress || onPhone()) return;
      toast(progressToastText(event.step, job.progress), { id: event.jobId, duration: PROGRESS_TOAST_MS });
    },
    completed(_event, job) {
      toast.dismiss(job.id);
      if (!loadVideoDefaults(storage).autoDownload) return;
      void resolveVideoFileUrl(api, platform, job).then((url) => {
        if (url) triggerDownload(url, videoFilename(job));
      });
    },
    failed(_event, job) {
      toast.error(jobFailureText(job), { id: job.id });
    },
    // A cancelled job's progress toast goes at once instead of lingering beside "Job cancelled".
    cancelled(job) {
      toast.dismiss(job.id);
    },
  };
}
