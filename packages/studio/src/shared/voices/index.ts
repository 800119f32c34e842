export { VoicePicker, type VoicePickerProps } from './voice-picker.js';
export { VoicePreview, PROVIDER_LABELS, type VoicePreviewProps, type PreviewState } from './voice-preview.js';
export { VoiceSampleStatsPanel, LanguageBreakdown } from './voice-sample-stats-panel.js';
export { QuotaStatusWidget } from './quota-status-widget.js';
export { VoiceSampleMigrationCard, GENERATION_TIME_NOTE } from './voice-sample-migration-card.js';
export { audioCoordinator, claimPlayback, releasePlayback, stopAllPlayback } from './audio-coordinator.js';
export { sampleCountTone, samplePercentTone, samplePercent, type SampleTone } from './sample-thresholds.js';
export {
  asVoiceLanguage,
  voicesQueryKey,
  voiceSampleStatsQueryKey,
  voiceProviderConfigQueryKey,
  GENERATION_POLL_MS,
  useVoices,
  useVoiceSampleStats,
  useIsAdmin,
  useVoiceProviderConfig,
  useGenerateVoiceSamples,
} from './voice-queries.js';
