import { z } from './zod.js';

/** The enumerations of the product. Order matters: it is the order the UI lists them in. */
export const STORY_STYLES = [
  'educational',
  'news like style',
  'curious',
  'real stoic knowledge',
  'funny',
  'romantic',
  'mysterious',
  'sci-fi',
  'action',
  'emotional',
  'psychological',
  'terrifying',
  'dramatic',
  'motivational',
  'inspirational',
  'motivational speaker',
  'hindu mythology',
  'emotional lesson (sattaire)',
  'aesthetic',
  'custom',
] as const;
export const storyStyleSchema = z.enum(STORY_STYLES);
export type StoryStyle = z.infer<typeof storyStyleSchema>;
export const DEFAULT_STORY_STYLE: StoryStyle = 'mysterious';

/** The subset offered as a default in Settings > Video Defaults. */
export const SETTINGS_STORY_STYLES = [
  'mysterious',
  'terrifying',
  'educational',
  'motivational',
  'funny',
  'dramatic',
  'romantic',
  'action',
  'sci-fi',
] as const satisfies readonly StoryStyle[];

/** Languages a video can be generated in. */
export const VIDEO_LANGUAGES = ['en', 'hi', 'de', 'es', 'ja', 'fr', 'pt'] as const;
export const videoLanguageSchema = z.enum(VIDEO_LANGUAGES);
export type VideoLanguage = z.infer<typeof videoLanguageSchema>;

/** Languages with voice samples: the video languages plus ko, zh, it. */
export const VOICE_LANGUAGES = ['en', 'hi', 'de', 'es', 'ja', 'fr', 'pt', 'ko', 'zh', 'it'] as const;
export const voiceLanguageSchema = z.enum(VOICE_LANGUAGES);
export type VoiceLanguage = z.infer<typeof voiceLanguageSchema>;

export const LANGUAGE_NAMES: Record<VoiceLanguage, string> = {
  en: 'English',
  hi: 'Hindi',
  de: 'German',
  es: 'Spanish',
  ja: 'Japanese',
  fr: 'French',
  pt: 'Portuguese',
  ko: 'Korean',
  zh: 'Chinese',
  it: 'Italian',
};

export const VISUAL_STYLES = [
  'cinematic',
  'dark horror',
  'bright colorful',
  'realistic photography',
  'artistic painting',
  'cartoon animation',
] as const;
export const visualStyleSchema = z.enum(VISUAL_STYLES);
export type VisualStyle = z.infer<typeof visualStyleSchema>;
export const DEFAULT_VISUAL_STYLE: VisualStyle = 'cinematic';

export const RESOLUTIONS = ['9:16', '16:9', '1:1'] as const;
export const resolutionSchema = z.enum(RESOLUTIONS);
export type Resolution = z.infer<typeof resolutionSchema>;
export const DEFAULT_RESOLUTION: Resolution = '9:16';

/** Output frame size per aspect ratio. */
export const RESOLUTION_SIZES: Record<Resolution, { width: number; height: number }> = {
  '9:16': { width: 1080, height: 1920 },
  '16:9': { width: 1920, height: 1080 },
  '1:1': { width: 1080, height: 1080 },
};

export const DURATIONS = [30, 60, 90] as const;
export const durationSchema = z.union([z.literal(30), z.literal(60), z.literal(90)]);
export type Duration = z.infer<typeof durationSchema>;
export const DEFAULT_DURATION: Duration = 30;

export const ZOOM_DIRECTIONS = ['in', 'out'] as const;
export const zoomDirectionSchema = z.enum(ZOOM_DIRECTIONS);
export type ZoomDirection = z.infer<typeof zoomDirectionSchema>;

/** The spec's five static styles. */
export const CAPTION_STYLES = ['tiktok', 'instagram', 'youtube', 'netflix', 'minimal'] as const;
export type SpecCaptionStyle = (typeof CAPTION_STYLES)[number];
/** The animated caption templates (caption-templates.ts describes each); ids are stable once published. */
export const CAPTION_TEMPLATE_IDS = [
  'word-pop',
  'bounce',
  'karaoke',
  'box-highlight',
  'one-word',
  'typewriter',
  'keyword',
  'neon-glow',
] as const;
export type CaptionTemplateId = (typeof CAPTION_TEMPLATE_IDS)[number];
/** Every value a `captionStyle` field takes: a spec style or a template id. */
export const CAPTION_STYLE_VALUES = [...CAPTION_STYLES, ...CAPTION_TEMPLATE_IDS] as const;
export const captionStyleSchema = z.enum(CAPTION_STYLE_VALUES);
export type CaptionStyle = z.infer<typeof captionStyleSchema>;

export const VOICE_PROVIDERS = ['azure', 'elevenlabs', 'neural', 'offline'] as const;
export const voiceProviderSchema = z.enum(VOICE_PROVIDERS);
export type VoiceProviderId = z.infer<typeof voiceProviderSchema>;

export const GENDERS = ['male', 'female'] as const;
export const genderSchema = z.enum(GENDERS);
export type Gender = z.infer<typeof genderSchema>;

export const ROLES = ['user', 'admin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** Plan ids in ascending tier order. */
export const PLAN_IDS = ['essentials_plan', 'starter_plan', 'basic_plan', 'pro_plan'] as const;
export const planIdSchema = z.enum(PLAN_IDS);
export type PlanId = z.infer<typeof planIdSchema>;
/** Each plan's name as creators and admins read it (the plan catalogue and every label use these). */
export const PLAN_NAMES: Readonly<Record<PlanId, string>> = {
  essentials_plan: 'Essentials',
  starter_plan: 'Starter',
  basic_plan: 'Basic',
  pro_plan: 'Pro',
};

export const CURRENCIES = ['INR', 'USD'] as const;
export const currencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof currencySchema>;

export const JOB_STATUSES = ['pending', 'queued', 'processing', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;
export const ACTIVE_JOB_STATUSES: readonly JobStatus[] = ['pending', 'queued', 'in_progress', 'processing'];
export const isActiveJobStatus = (status: string): boolean => (ACTIVE_JOB_STATUSES as readonly string[]).includes(status);

export const PIPELINE_STEPS = ['setup', 'story', 'voice', 'images', 'video'] as const;
export const pipelineStepSchema = z.enum(PIPELINE_STEPS);
export type PipelineStep = z.infer<typeof pipelineStepSchema>;

export const STEP_STATUSES = ['pending', 'running', 'completed', 'failed', 'skipped'] as const;
export const stepStatusSchema = z.enum(STEP_STATUSES);
export type StepStatus = z.infer<typeof stepStatusSchema>;

export const SUBSCRIPTION_STATUSES = ['active', 'cancelled', 'expired'] as const;
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

export const PROVIDER_TYPES = ['story', 'voice', 'images', 'research'] as const;
export const providerTypeSchema = z.enum(PROVIDER_TYPES);
export type ProviderType = z.infer<typeof providerTypeSchema>;
