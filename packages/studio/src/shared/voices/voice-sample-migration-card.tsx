import { MESSAGES } from '@reelsmith/contracts';
import { useId, useState } from 'react';
import { errorMessage } from '../../api/api-client.js';
import { sampleCountTone, samplePercent, samplePercentTone } from './sample-thresholds.js';
import { PROVIDER_LABELS } from './voice-preview.js';
import { LanguageBreakdown } from './voice-sample-stats-panel.js';
import { useGenerateVoiceSamples, useIsAdmin, useVoiceProviderConfig, useVoiceSampleStats } from './voice-queries.js';
import './voices.css';

export const GENERATION_TIME_NOTE = 'Generating samples may take 10-20 minutes.';

/**
 * Voice sample migration status: loading, a warning while samples are missing,
 * a progress bar, an expandable language breakdown, and for admins a real "Generate missing
 * samples" action with live progress.
 */
export function VoiceSampleMigrationCard() {
  const isAdmin = useIsAdmin();
  const stats = useVoiceSampleStats();
  const config = useVoiceProviderConfig(isAdmin);
  const generate = useGenerateVoiceSamples();
  const [expanded, setExpanded] = useState(false);
  const breakdownId = useId();

  if (stats.isPending) {
    return (
      <section className="rs-card rs-migration-card" aria-label="Voice sample migration">
        <p role="status">Loading voice sample status…</p>
      </section>
    );
  }
  if (stats.isError) {
    return (
      <section className="rs-card rs-migration-card" aria-label="Voice sample migration">
        <p className="rs-voice-stats__warning" role="alert">
          {MESSAGES.voiceStatsLoadFailed}
        </p>
      </section>
    );
  }

  const { total, available, missing, byLanguage, currentProvider } = stats.data;
  const percent = samplePercent(available, total);
  const countTone = sampleCountTone(available, total);
  const percentTone = samplePercentTone(percent);
  const samplesStatus = config.data?.samples_status;
  const generating = samplesStatus?.generating ?? false;

  return (
    <section className="rs-card rs-migration-card" aria-label="Voice sample migration">
      <header className="rs-migration-card__header">
        <h3>Voice sample migration</h3>
        <span className={`rs-chip rs-tone--${countTone}`} data-tone={countTone}>
          {available} / {total} samples
        </span>
      </header>
      <p className="rs-migration-card__provider">Provider: {PROVIDER_LABELS[currentProvider]}</p>
      <div
        className={`rs-migration-card__bar rs-tone--${percentTone}`}
        role="progressbar"
        aria-label="Samples available"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        data-tone={percentTone}
      >
        <div className="rs-migration-card__bar-fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="rs-migration-card__percent">{percent}% available</p>
      {missing > 0 && (
        <p className="rs-migration-card__warning" role="status">
          {missing} voice sample{missing === 1 ? ' is' : 's are'} missing; their previews are unavailable until generated.
        </p>
      )}
      <p className="rs-migration-card__note">{GENERATION_TIME_NOTE}</p>

      {isAdmin && (
        <div className="rs-migration-card__actions">
          <button
            type="button"
            className="rs-button rs-button--primary"
            disabled={generating || generate.isPending || missing === 0}
            onClick={() => generate.mutate()}
          >
            {generating ? 'Generating samples…' : 'Generate missing samples'}
          </button>
          {generating && samplesStatus && (
            <div
              className="rs-migration-card__bar rs-migration-card__bar--generation"
              role="progressbar"
              aria-label="Sample generation progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(samplesStatus.progress)}
            >
              <div className="rs-migration-card__bar-fill" style={{ width: `${samplesStatus.progress}%` }} />
            </div>
          )}
          {generate.data && !generating && <p role="status">{generate.data.message}</p>}
          {generate.isError && (
            <p className="rs-field__error" role="alert">
              {errorMessage(generate.error, 'Failed to start sample generation')}
            </p>
          )}
        </div>
      )}

      <button
        type="button"
        className="rs-link-button"
        aria-expanded={expanded}
        aria-controls={breakdownId}
        onClick={() => setExpanded((open) => !open)}
      >
        {expanded ? 'Hide language breakdown' : 'Show language breakdown'}
      </button>
      {expanded && (
        <div id={breakdownId}>
          <LanguageBreakdown byLanguage={byLanguage} />
        </div>
      )}
    </section>
  );
}
