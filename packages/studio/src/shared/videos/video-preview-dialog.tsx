import * as Dialog from '@radix-ui/react-dialog';
import { CloseIcon } from '../../ui/icons.js';

/** A video's frame shape (video-file-actions tells it from the job). */
export type VideoShape = 'portrait' | 'landscape' | 'square';

export interface VideoPreviewDialogProps {
  title: string;
  url: string | null;
  shape?: VideoShape;
  onClose(): void;
}

/** A modal player for a finished video; the <video> element streams (and seeks) from the API host. */
export function VideoPreviewDialog({ title, url, shape = 'landscape', onClose }: VideoPreviewDialogProps) {
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
