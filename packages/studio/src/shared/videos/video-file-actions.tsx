import { MESSAGES, type VideoJob } from '@reelsmith/contracts';
import { Suspense, useState } from 'react';
import { toast } from '../../toaster.js';
import { usePlatform } from '../../platform.js';
import { useApi } from '../../services.js';
import { useOpenedOnce } from '../../ui/opened-once.js';
import { preloadable } from '../../ui/preloadable.js';
import { resolveVideoFileUrl, triggerDownload, videoFilename } from '../jobs/video-file.js';
import { videoTitle } from './video-list-model.js';
import type { VideoPreviewDialogProps, VideoShape } from './video-preview-dialog.js';
import './video-file-actions.css';

export type { VideoShape };

/** The frame's shape, so the dialog fits a vertical video without wide black bars. */
export function videoShape(job: Pick<VideoJob, 'result' | 'params'>): VideoShape {
  const width = job.result?.width;
  const height = job.result?.height;
  if (width && height) return width === height ? 'square' : width > height ? 'landscape' : 'portrait';
  return job.params.resolution === '16:9' ? 'landscape' : job.params.resolution === '1:1' ? 'square' : 'portrait';
}

// The player's modal (Radix dialog) is fetched on the first Preview (or when the pointer reaches the
// button): the lists that show these actions load without it.
const previewDialog = preloadable<VideoPreviewDialogProps>(() => import('./video-preview-dialog.js').then((m) => m.VideoPreviewDialog));
const VideoPreviewDialog = previewDialog.Component;

/**
 * Preview and Download for a completed job, shared by the studio's Recent Videos and My Videos.
 * Without a file URL both say the file is not ready. `download: false` where the version menu beside
 * it downloads (one Download button per video, for the version chosen there).
 */
export function VideoFileActions({
  job,
  compact = false,
  download: withDownload = true,
}: {
  job: Pick<VideoJob, 'id' | 'result' | 'params'>;
  compact?: boolean;
  download?: boolean;
}) {
  const api = useApi();
  const platform = usePlatform();
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const previewOpened = useOpenedOnce(previewUrl !== null);
  const title = videoTitle(job);
  const preloadPreview = () => void previewDialog.preload().catch(() => undefined);

  const preview = async () => {
    preloadPreview();
    const url = await resolveVideoFileUrl(api, platform, job);
    if (!url) return void toast.error(MESSAGES.fileNotReady);
    toast(MESSAGES.openingPreview);
    setPreviewUrl(url);
  };

  const download = async () => {
    const url = await resolveVideoFileUrl(api, platform, job);
    if (!url) return void toast.error(MESSAGES.fileNotReady);
    triggerDownload(url, videoFilename(job));
    toast.success(MESSAGES.downloadStarted);
  };

  const size = compact ? ' rs-button--small' : '';
  return (
    <div className="rs-file-actions">
      <button
        type="button"
        className={`rs-button rs-button--ghost${size}`}
        onClick={() => void preview()}
        onPointerEnter={preloadPreview}
        onFocus={preloadPreview}
        aria-label={`Preview ${title}`}
      >
        Preview
      </button>
      {withDownload ? (
        <button
          type="button"
          className={`rs-button rs-button--primary${size}`}
          onClick={() => void download()}
          aria-label={`Download ${title}`}
        >
          Download
        </button>
      ) : null}
      {previewOpened ? (
        <Suspense fallback={null}>
          <VideoPreviewDialog title={title} url={previewUrl} shape={videoShape(job)} onClose={() => setPreviewUrl(null)} />
        </Suspense>
      ) : null}
    </div>
  );
}
