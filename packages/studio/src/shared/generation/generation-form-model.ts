import {
  DEFAULT_DURATION,
  DEFAULT_RESOLUTION,
  DEFAULT_STORY_STYLE,
  DEFAULT_VISUAL_STYLE,
  generationFormSchema,
  DEFAULT_MUSIC_CHOICE,
  sourceSchema,
  toGenerateVideoBody,
  topicFromSource,
  type CaptionDelivery,
  type CaptionStyle,
  type GenerationParams,
  type Duration,
  type MusicChoice,
  type Resolution,
  type VisualStyle,
  type VoiceProviderId,
  type ZoomDirection,
} from '@reelsmith/contracts';
import type { VideoDefaults } from '../../preferences/video-defaults.js';
import { sourceError, sourceInput, TOPIC_ONLY, type SourceDraft } from './source-draft.js';

/** The studio form as the user edits it. */
export interface GenerationFormValues {
  topic: string;
  style: string;
  customStyle: string;
  language: string;
  duration: Duration;
  voice: string;
  visualStyle: VisualStyle;
  resolution: Resolution;
  customPrompt: string;
  enableZoom: boolean;
  zoomDirection: ZoomDirection;
  enableCaptions: boolean;
  captionStyle: CaptionStyle;
  /** With captions on: drawn into the video, or files (SRT, VTT) beside a video without them. */
  captions: CaptionDelivery;
  music: MusicChoice;
  /** A script or an article to tell instead of writing around the topic (the topic is then optional). */
  source: SourceDraft;
}
export type FormField = keyof GenerationFormValues;
export type FormErrors = Partial<Record<FormField, string>>;

/** The generation defaults of the contracts; the language starts empty in the studio. */
export const STUDIO_DEFAULTS: GenerationFormValues = {
  topic: '',
  style: DEFAULT_STORY_STYLE,
  customStyle: '',
  language: '',
  duration: DEFAULT_DURATION,
  voice: '',
  visualStyle: DEFAULT_VISUAL_STYLE,
  resolution: DEFAULT_RESOLUTION,
  customPrompt: '',
  enableZoom: true,
  zoomDirection: 'in',
  enableCaptions: false,
  captionStyle: 'tiktok',
  captions: 'burned',
  music: DEFAULT_MUSIC_CHOICE,
  source: TOPIC_ONLY,
};

/** The form's first values: the studio defaults, overridden by the user's saved Video Defaults. */
export function initialFormValues(saved: VideoDefaults | null): GenerationFormValues {
  if (!saved) return STUDIO_DEFAULTS;
  return {
    ...STUDIO_DEFAULTS,
    style: saved.defaultStyle,
    language: saved.defaultLanguage,
    duration: saved.defaultDuration,
    visualStyle: saved.defaultVisualStyle,
    resolution: saved.defaultResolution,
  };
}

/** With a source and no topic, the source's title or first sentence names the video. */
const topicOptional = (values: GenerationFormValues) => values.source.choice !== 'topic' && values.topic.trim() === '';

/** One message per field, from the contracts' schemas (the form validates on every change). */
export function validateForm(values: GenerationFormValues): FormErrors {
  const errors: FormErrors = {};
  const result = generationFormSchema.safeParse(values);
  for (const issue of result.success ? [] : result.error.issues) {
    const field = issue.path[0] as FormField | undefined;
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  if (topicOptional(values)) delete errors.topic;
  const source = sourceError(values.source);
  if (source) errors.source = source;
  return errors;
}

/**
 * The generate request for valid values, or null. A source video without a topic carries the one
 * the contracts derive from the source (its title, first sentence, or link), as the server would.
 */
export function generationRequest(values: GenerationFormValues, voiceProvider?: VoiceProviderId): GenerationParams | null {
  if (Object.keys(validateForm(values)).length > 0) return null;
  const source = sourceInput(values.source);
  const parsedSource = source ? sourceSchema.safeParse(source) : null;
  if (parsedSource && !parsedSource.success) return null;
  const topic = parsedSource && topicOptional(values) ? topicFromSource(parsedSource.data) : values.topic;
  const form = generationFormSchema.safeParse({ ...values, topic });
  if (!form.success) return null;
  // A script or an article replaces what the Wikipedia line added to a topic.
  const params = { ...toGenerateVideoBody(form.data, voiceProvider), ...values.source.research };
  return parsedSource ? { ...params, source: parsedSource.data } : params;
}

/** Where the submit button is: checking the plan, sending the job, or the 1 s after success. */
export type SubmitPhase = 'idle' | 'checking' | 'generating' | 'started';

/** What the submit button follows: who presses it, where the submission is, and the jobs under way. */
export interface SubmitState {
  signedIn: boolean;
  phase: SubmitPhase;
  generating: boolean;
  activeJobs: number;
}

export function submitButtonText({ signedIn, phase, generating, activeJobs }: SubmitState): string {
  if (!signedIn) return 'Try Free Demo - Sign Up Required!';
  if (phase === 'checking') return 'Submitting...';
  if (generating || phase === 'generating') return 'Generating...';
  if (phase === 'started') return 'Starting...';
  if (activeJobs > 0) return `Processing (${activeJobs} video(s))...`;
  return 'Generate Video';
}

/** Blocked while a submission, a generation or any active job exists (visitors may always press). */
export function isSubmitBlocked({ signedIn, phase, generating, activeJobs }: SubmitState): boolean {
  return signedIn && (phase !== 'idle' || generating || activeJobs > 0);
}

/** 'news like style' → 'News like style'. */
export function optionLabel(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}
