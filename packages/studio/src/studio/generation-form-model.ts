import {
  DEFAULT_DURATION,
  DEFAULT_RESOLUTION,
  DEFAULT_STORY_STYLE,
  DEFAULT_VISUAL_STYLE,
  generationFormSchema,
  DEFAULT_MUSIC_CHOICE,
  type CaptionStyle,
  type Duration,
  type MusicChoice,
  type Resolution,
  type VisualStyle,
  type ZoomDirection,
} from '@reelsmith/contracts';
import type { VideoDefaults } from '../preferences/video-defaults.js';

/** The studio form as the user edits it (spec section 3, "Generation form"). */
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
  music: MusicChoice;
}
export type FormField = keyof GenerationFormValues;
export type FormErrors = Partial<Record<FormField, string>>;

/** Section 5's defaults; the language starts empty in the studio. */
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
  music: DEFAULT_MUSIC_CHOICE,
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

/** One message per field, from the contracts' schema (the form validates on every change). */
export function validateForm(values: GenerationFormValues): FormErrors {
  const result = generationFormSchema.safeParse(values);
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as FormField | undefined;
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

/** Where the submit button is: checking the plan, sending the job, or the 1 s after success. */
export type SubmitPhase = 'idle' | 'checking' | 'generating' | 'started';

export function submitButtonText({ signedIn, phase, generating, activeJobs }: { signedIn: boolean; phase: SubmitPhase; generating: boolean; activeJobs: number }): string {
  if (!signedIn) return 'Try Free Demo - Sign Up Required!';
  if (phase === 'checking') return 'Submitting...';
  if (generating || phase === 'generating') return 'Generating...';
  if (phase === 'started') return 'Starting...';
  if (activeJobs > 0) return `Processing (${activeJobs} video(s))...`;
  return 'Generate Video';
}

/** Blocked while a submission, a generation or any active job exists (visitors may always press). */
export function isSubmitBlocked({ signedIn, phase, generating, activeJobs }: { signedIn: boolean; phase: SubmitPhase; generating: boolean; activeJobs: number }): boolean {
  return signedIn && (phase !== 'idle' || generating || activeJobs > 0);
}

/** 'news like style' → 'News like style'. */
export function optionLabel(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}
