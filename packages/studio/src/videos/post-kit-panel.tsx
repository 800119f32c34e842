import { POST_TITLE_MAX_LENGTH, type CaptionFileFormat, type PostKit, type VideoJob } from '@reelsmith/contracts';
import { useState } from 'react';
import { errorMessage } from '../api/api-client.js';
import { useApi } from '../services.js';
import { toast } from '../toaster.js';
import { saveBlob } from '../ui/browser-download.js';
import './post-kit-panel.css';

/** Hashtags as the creator types them: separated by spaces or commas, each with its # (added when left out). */
export function parseHashtags(text: string): string[] {
  return text
    .split(/[\s,]+/u)
    .map((tag) => tag.trim())
    .filter(Boolean)
    .map((tag) => (tag.startsWith('#') ? tag : `#${tag}`));
}

async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(`${what} copied`);
  } catch {
    toast.error(`Could not copy the ${what.toLowerCase()}: select it and copy it by hand`);
  }
}

function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="rs-post-kit__row">
      <div className="rs-post-kit__label">{label}</div>
      <p className="rs-post-kit__value">{value}</p>
      <button
        type="button"
        className="rs-button rs-button--ghost rs-button--small"
        aria-label={`Copy ${label.toLowerCase()}`}
        onClick={() => void copy(value, label)}
      >
        Copy
      </button>
    </div>
  );
}

/**
 * Under a finished video in My Videos: its caption files (SubRip, WebVTT) and its post kit (title,
 * description with credits, hashtags), each copied with one click and editable.
 */
export function PostKitPanel({ job }: { job: Pick<VideoJob, 'id' | 'result' | 'params'> }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [post, setPost] = useState<PostKit | undefined>(job.result?.post);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState({ title: '', description: '', hashtags: '' });
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const base = (job.result?.filename ?? job.id).replace(/\.mp4$/i, '');
  // Made with captions: 'file': the MP4 has none drawn in, so its caption files sit beside it, always in view.
  const asFiles = job.params.captions === 'file';

  const downloadCaptions = async (format: CaptionFileFormat) => {
    try {
      const text = await api.call('videoCaptions', { params: { id: job.id }, query: { format } });
      saveBlob(new Blob([text], { type: format === 'vtt' ? 'text/vtt' : 'application/x-subrip' }), `${base}.${format}`);
      toast.success(`Caption file (${format.toUpperCase()}) downloaded`);
    } catch (failure) {
      toast.error(errorMessage(failure, 'The caption file could not be downloaded. Try again.'));
    }
  };

  const captionButtons = (label: string) => (
    <div className="rs-post-kit__captions">
      <span className="rs-post-kit__label">{label}</span>
      {(['srt', 'vtt'] as const).map((format) => (
        <button
          key={format}
          type="button"
          className="rs-button rs-button--ghost rs-button--small"
          aria-label={`${format.toUpperCase()} caption file`}
          onClick={() => void downloadCaptions(format)}
        >
          {format.toUpperCase()}
        </button>
      ))}
    </div>
  );

  const startEditing = () => {
    setDraft({ title: post?.title ?? '', description: post?.description ?? '', hashtags: (post?.hashtags ?? []).join(' ') });
    setError(null);
    setEditing(true);
  };

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const saved = await api.call('updatePostKit', {
        params: { id: job.id },
        body: { title: draft.title, description: draft.description, hashtags: parseHashtags(draft.hashtags) },
      });
      setPost(saved);
      setEditing(false);
      toast.success('Post text saved');
    } catch (failure) {
      const field = (failure as { field?: string }).field;
      setError({ ...(field ? { field } : {}), message: errorMessage(failure, 'The post text could not be saved. Try again.') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="rs-post-kit">
      {asFiles ? captionButtons('Captions as files (none drawn in the video)') : null}
      <button
        type="button"
        className="rs-post-kit__summary"
        aria-expanded={open}
        aria-controls={`post-kit-${job.id}`}
        onClick={() => setOpen(!open)}
      >
        {asFiles ? 'Post kit' : 'Post kit and captions'}
      </button>
      {open ? (
        <div id={`post-kit-${job.id}`}>
          {asFiles ? null : captionButtons('Caption files')}
          {editing ? (
            <form
              className="rs-post-kit__form"
              onSubmit={(event) => {
                event.preventDefault();
                void save();
              }}
            >
              <label className="rs-field__label">
                Title
                <input
                  className="rs-field__input"
                  value={draft.title}
                  maxLength={POST_TITLE_MAX_LENGTH}
                  onChange={(event) => setDraft({ ...draft, title: event.target.value })}
                />
              </label>
              <label className="rs-field__label">
                Description
                <textarea
                  className="rs-field__input rs-post-kit__description"
                  value={draft.description}
                  rows={6}
                  onChange={(event) => setDraft({ ...draft, description: event.target.value })}
                />
              </label>
              <label className="rs-field__label">
                Hashtags
                <input
                  className="rs-field__input"
                  value={draft.hashtags}
                  onChange={(event) => setDraft({ ...draft, hashtags: event.target.value })}
                />
              </label>
              {error ? (
                <p className="rs-field__error" role="alert">
                  {error.message}
                </p>
              ) : null}
              <div className="rs-post-kit__actions">
                <button type="submit" className="rs-button rs-button--primary rs-button--small" disabled={saving}>
                  {saving ? 'Saving…' : 'Save post text'}
                </button>
                <button type="button" className="rs-button rs-button--ghost rs-button--small" onClick={() => setEditing(false)}>
                  Cancel
                </button>
              </div>
            </form>
          ) : post ? (
            <div className="rs-post-kit__body">
              <CopyRow label="Title" value={post.title} />
              <CopyRow label="Description" value={post.description} />
              <CopyRow label="Hashtags" value={post.hashtags.join(' ')} />
              <button type="button" className="rs-button rs-button--ghost rs-button--small" onClick={startEditing}>
                Edit post text
              </button>
            </div>
          ) : (
            <p className="rs-post-kit__empty">
              This video was made before post kits.{' '}
              <button type="button" className="rs-link-button" onClick={startEditing}>
                Write the post text
              </button>
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}
