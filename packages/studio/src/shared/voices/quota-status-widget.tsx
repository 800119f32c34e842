import { sampleCountTone, samplePercent } from './sample-thresholds.js';
import { useIsAdmin, useVoiceSampleStats } from './voice-queries.js';
import './voices.css';

export const QUOTA_CHECKING_TEXT = 'Checking…';
export const QUOTA_UNKNOWN_TEXT = 'Count unavailable';

/**
 * Voice sample quota in the studio: always shown to admins, to others only
 * when fewer samples are available than expected. Until the stats arrive (or when they cannot be
 * read) the count is unknown, and the widget says so instead of showing the spec's default 560 of
 * 560 as if every sample were there; others see nothing until a real shortfall is known.
 */
export function QuotaStatusWidget() {
  const isAdmin = useIsAdmin();
  const stats = useVoiceSampleStats();
  if (!stats.data) {
    if (!isAdmin) return null;
    return (
      <aside
        className="rs-quota-widget rs-quota-widget--unknown"
        aria-label="Voice sample quota"
        data-tone="unknown"
        aria-busy={!stats.isError}
      >
        <span className="rs-quota-widget__title">Voice previews</span>
        <span className="rs-quota-widget__count">{stats.isError ? QUOTA_UNKNOWN_TEXT : QUOTA_CHECKING_TEXT}</span>
      </aside>
    );
  }
  const { total, available } = stats.data;
  if (!isAdmin && available >= total) return null;
  const tone = sampleCountTone(available, total);
  return (
    <aside className={`rs-quota-widget rs-tone--${tone}`} aria-label="Voice sample quota" data-tone={tone}>
      <span className="rs-quota-widget__title">Voice previews</span>
      <span className="rs-quota-widget__count">
        {available} / {total} available
      </span>
      <span className="rs-quota-widget__percent">{samplePercent(available, total)}%</span>
    </aside>
  );
}
