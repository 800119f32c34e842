import { LANGUAGE_NAMES, MESSAGES, VOICE_LANGUAGES, type VoiceSampleStats } from '@reelsmith/contracts';
import { useId, useState } from 'react';
import { PROVIDER_LABELS } from './voice-preview.js';
import { useVoiceSampleStats } from './voice-queries.js';
import './voices.css';

/** Per-language sample counts as a list, in the studio's language order. */
export function LanguageBreakdown({ byLanguage }: { byLanguage: VoiceSampleStats['byLanguage'] }) {
  return (
    <ul className="rs-voice-stats__languages" aria-label="Samples by language">
      {VOICE_LANGUAGES.map((code) => (
        <li key={code}>
          <span>
            {LANGUAGE_NAMES[code]} <span className="rs-voice-stats__code">({code.toUpperCase()})</span>
          </span>
          <strong>{byLanguage[code] ?? 0}</strong>
        </li>
      ))}
    </ul>
  );
}

/** Voice sample statistics: loading, error or loaded; collapsed or expanded; polled every 30 s. */
export function VoiceSampleStatsPanel({ defaultExpanded = false }: { defaultExpanded?: boolean }) {
  const stats = useVoiceSampleStats();
  const [expanded, setExpanded] = useState(defaultExpanded);
  const contentId = useId();

  return (
    <section className="rs-card rs-voice-stats" aria-label="Voice sample statistics">
      <button
        type="button"
        className="rs-voice-stats__toggle"
        aria-expanded={expanded}
        aria-controls={contentId}
        onClick={() => setExpanded((open) => !open)}
      >
        <span>Voice samples</span>
        {stats.data && (
          <span className="rs-chip">
            {stats.data.available} / {stats.data.total}
          </span>
        )}
      </button>
      {expanded && (
        <div id={contentId} className="rs-voice-stats__content">
          {stats.isPending ? (
            <p role="status">Loading voice sample statistics…</p>
          ) : stats.isError ? (
            <p className="rs-voice-stats__warning" role="alert">
              {MESSAGES.voiceStatsLoadFailed}
            </p>
          ) : (
            <>
              <dl className="rs-voice-stats__summary">
                <div>
                  <dt>Total</dt>
                  <dd>{stats.data.total}</dd>
                </div>
                <div>
                  <dt>Available</dt>
                  <dd>{stats.data.available}</dd>
                </div>
                <div>
                  <dt>Missing</dt>
                  <dd>{stats.data.missing}</dd>
                </div>
                <div>
                  <dt>Provider</dt>
                  <dd>{PROVIDER_LABELS[stats.data.currentProvider]}</dd>
                </div>
              </dl>
              <LanguageBreakdown byLanguage={stats.data.byLanguage} />
            </>
          )}
        </div>
      )}
    </section>
  );
}
