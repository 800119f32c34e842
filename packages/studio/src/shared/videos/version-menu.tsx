import { MESSAGES } from '@reelsmith/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from '../../toaster.js';
import { apiUrl, usePlatform } from '../../platform.js';
import { useApi } from '../../services.js';
import { triggerDownload } from '../jobs/video-file.js';
import '../../styles/studio.css';
import './video-file-actions.css';

export const versionsQueryKey = (videoId: string) => ['videos', 'versions', videoId] as const;

/** Every version of a video (v1, v2, …), newest first, and the video's one Download button, for the version chosen. */
export function VersionMenu({ videoId, latestVersion }: { videoId: string; latestVersion?: number }) {
  const api = useApi();
  const platform = usePlatform();
  const selectId = useId();
  const query = useQuery({
    // The latest version is part of the key so a finished render lists itself.
    queryKey: [...versionsQueryKey(videoId), latestVersion ?? null],
    queryFn: () => api.call('videoVersions', { params: { id: videoId } }),
  });
  const versions = [...(query.data?.versions ?? [])].sort((a, b) => b.version - a.version);
  const [chosen, setChosen] = useState<number | null>(null);
  if (versions.length === 0) return null;
  const selected = versions.find((entry) => entry.version === chosen) ?? versions[0]!;

  const download = () => {
    if (!selected.videoUrl) return void toast.error(MESSAGES.fileNotReady);
    triggerDownload(apiUrl(platform, selected.videoUrl), selected.filename ?? `${videoId}-v${selected.version}.mp4`);
    toast.success(MESSAGES.downloadStarted);
  };

  return (
    <div className="rs-version-menu">
      <label htmlFor={selectId} className="rs-visually-hidden">
        Version
      </label>
      <select
        id={selectId}
        className="rs-field__input rs-select rs-version-menu__select"
        value={selected.version}
        onChange={(e) => setChosen(Number(e.target.value))}
      >
        {versions.map((entry) => (
          <option key={entry.version} value={entry.version}>
            v{entry.version}
            {entry === versions[0] ? ' (latest)' : ''} ·{' '}
            {new Date(entry.createdAt).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="rs-button rs-button--primary rs-button--small"
        onClick={download}
        aria-label={`Download version ${selected.version}`}
      >
        Download
      </button>
    </div>
  );
}
