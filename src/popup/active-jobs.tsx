import { isActiveJobStatus, type VideoJob } from '@reelsmith/contracts';
import { apiUrl, labelForProgress, labelForStep, usePlatform } from '@reelsmith/studio/popup';
import { toast } from '@reelsmith/studio/popup';
import type { ExtensionJobSource } from '../extension-host/extension-job-source.js';
import { failureText, recentFinishedJobs } from './job-outcomes.js';

const QUEUED_TEXT = 'Queued for processing';

function stepLine(job: VideoJob): string {
  if (job.currentStep) return labelForStep(job.currentStep);
  if (job.status === 'pending' || job.status === 'queued') return QUEUED_TEXT;
  return labelForProgress(job.progress);
}

/** The jobs the worker follows: live progress for active ones, the last finished ones (Watch, or why they failed). */
export function ActiveJobs({ jobs, list }: { jobs: ExtensionJobSource; list: readonly VideoJob[] }) {
  const platform = usePlatform();
  const active = list.filter((job) => isActiveJobStatus(job.status));
  const finished = recentFinishedJobs(list);
  if (active.length === 0 && finished.length === 0) return null;

  return (
    <section className="rs-popup__jobs" aria-label="Your jobs">
      {active.map((job) => (
        <article key={job.id} className="rs-popup__job" aria-label={`Job ${job.params.topic}`}>
          <div className="rs-popup__job-head">
            <span className="rs-popup__job-topic">{job.params.topic}</span>
            <button
              type="button"
              className="rs-link-button"
              onClick={() => void jobs.cancel(job.id).catch((error: Error) => toast.error(error.message))}
            >
              Cancel
            </button>
          </div>
          <div
            className="rs-progress"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(job.progress)}
            aria-label={`${job.params.topic} progress`}
          >
            <span style={{ width: `${Math.max(2, job.progress)}%` }} />
          </div>
          <p className="rs-popup__job-step">
            {stepLine(job)} · {Math.round(job.progress)}%
          </p>
        </article>
      ))}
      {finished.map((job) =>
        job.status === 'failed' ? (
          <article key={job.id} className="rs-popup__job rs-popup__job--failed" aria-label={`Job ${job.params.topic}`}>
            <span className="rs-popup__job-topic">{job.params.topic}</span>
            <p className="rs-popup__job-error">{failureText(job)}</p>
          </article>
        ) : (
          <article key={job.id} className="rs-popup__job rs-popup__job--done" aria-label={`Job ${job.params.topic}`}>
            {/* width and height give the box the video's shape before the picture arrives (CSS fixes the height). */}
            {job.result?.posterUrl ? (
              <img src={apiUrl(platform, job.result.posterUrl)} alt="" loading="lazy" width={job.result.width} height={job.result.height} />
            ) : null}
            <span className="rs-popup__job-topic">{job.params.topic}</span>
            <button
              type="button"
              className="rs-link-button"
              onClick={() => job.result && platform.navigation.openTab(apiUrl(platform, job.result.videoUrl))}
            >
              Watch
            </button>
          </article>
        ),
      )}
    </section>
  );
}
