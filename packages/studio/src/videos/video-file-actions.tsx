import * as Dialog from '@radix-ui/react-dialog';
import { MESSAGES, type VideoJob } from '@reelsmith/contracts';
import { useState } from 'react';
import { toast } from '../toaster.js';
import { usePlatform } from '../platform.js';
import { useApi } from '../services.js';
import { CloseIcon } from '../ui/icons.js';
import { resolveVideoFileUrl, triggerDownload, videoFilename } from '../jobs/video-file.js';
import { videoTitle } from './video-list-model.js';
import './video-file-actions.css';

/** A modal player for a finished video; the <video> element streams (and seeks) from the API host. */
export type VideoShape = 'portrait' | 'landscape' | 'square';

/** The frame's shape, so the dialog fits a vertical video without wide black bars. */
export function videoShape(job: Pick<VideoJob, 'result' | 'params'>): VideoShape {
  const width = job.result?.width;
  const height = job.result?.height;
  if (width && height) return width === height ? 'square' : width > height ? 'landscape' : 'portrait';
  return job.params.resolution === '16:9' ? 'landscape' : job.params.resolution === '1:1' ? 'square' : 'portrait';
}

export function VideoPreviewDialog({
  title,
  url,
  shape = 'landscape',
  onClose,
}: {
  title: string;
  url: string | null;
  shape?: VideoShape;
  onClose(): void;
}) {
  return (
    <Dialog.Root open={url !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="rs-preview__overlay" />
        <Dialog.Content className={`rs-preview rs-preview--${shape}`} aria-describedby={undefined}>
          <div className="rs-preview__header">
            <Dialog.Title className="rs-preview__title">{title}</Dialog.Title>
            <Dialog.Close className="rs-icon-button" aria-label="Close preview">
              <CloseIcon />
            </Dialog.Close>
          </div>
          {url ? <video className="rs-preview__video" src={url} controls autoPlay playsInline aria-label={`Video: ${title}`} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

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
  const title = videoTitle(job);

  const preview = async () => {
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
      <button type="button" className={`rs-button rs-button--ghost${size}`} onClick={() => void preview()} aria-label={`Preview ${title}`}>
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
      <VideoPreviewDialog title={title} url={previewUrl} shape={videoShape(job)} onClose={() => setPreviewUrl(null)} />
    </div>
  );
}
