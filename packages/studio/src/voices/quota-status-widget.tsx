import { DEFAULT_QUOTA_AVAILABLE, DEFAULT_QUOTA_TOTAL } from '@reelsmith/contracts';
import { sampleCountTone, samplePercent } from './sample-thresholds.js';
import { useIsAdmin, useVoiceSampleStats } from './voice-queries.js';
import './voices.css';

/**
 * Voice sample quota in the studio (spec sections 2 and 9): always shown to admins, to others only
 * when fewer samples are available than expected. Reads 560 of 560 until the stats arrive.
 */
export function QuotaStatusWidget() {
  const isAdmin = useIsAdmin();
  const stats = useVoiceSampleStats();
  const total = stats.data?.total ?? DEFAULT_QUOTA_TOTAL;
  const available = stats.data?.available ?? DEFAULT_QUOTA_AVAILABLE;
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
