import { z } from './zod.js';
import { genderSchema, voiceLanguageSchema, voiceProviderSchema } from './enums.js';

export const voiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  gender: genderSchema,
  accent: z.string(),
  age: z.string(),
  /** The `neural` provider's voices: `natural` (Kokoro-82M) or `basic` (espeak-ng). */
  quality: z.optional(z.enum(['natural', 'basic'])),
});
export type Voice = z.infer<typeof voiceSchema>;

/** Where the natural voices' model is: the studio says "Natural voices are downloading (43%)" until it is ready. */
export const naturalVoicesStatusSchema = z.object({
  state: z.enum(['absent', 'downloading', 'ready', 'failed']),
  progress: z.number().check(z.gte(0), z.lte(100)),
  /** What the studio and the admin show while the natural voices cannot be used (null when ready). */
  message: z.nullable(z.string()),
  /** Whether the language has natural voices at all (German keeps espeak until a free German voice exists). */
  languageHasNaturalVoices: z.optional(z.boolean()),
});
export type NaturalVoicesStatus = z.infer<typeof naturalVoicesStatusSchema>;

export const voicesQuerySchema = z.object({
  language: voiceLanguageSchema,
  provider: z.optional(voiceProviderSchema),
});
export const voicesResponseSchema = z.object({
  language: voiceLanguageSchema,
  provider: voiceProviderSchema,
  voices: z.object({ male: z.array(voiceSchema), female: z.array(voiceSchema) }),
  /** With the `neural` provider: the model's state. */
  naturalVoices: z.optional(naturalVoicesStatusSchema),
});
export type VoicesResponse = z.infer<typeof voicesResponseSchema>;

export const voiceSampleStatsSchema = z.object({
  total: z.number().check(z.int()),
  available: z.number().check(z.int()),
  missing: z.number().check(z.int()),
  byLanguage: z.record(z.string(), z.number().check(z.int())),
  currentProvider: voiceProviderSchema,
});
export type VoiceSampleStats = z.infer<typeof voiceSampleStatsSchema>;

export const voiceProviderConfigSchema = z.object({
  current: voiceProviderSchema,
  available: z.array(voiceProviderSchema),
  /** The natural voices' model (download progress, or why it is missing). */
  naturalVoices: z.optional(naturalVoicesStatusSchema),
  samples_status: z.object({
    total: z.number().check(z.int()),
    available: z.number().check(z.int()),
    missing: z.number().check(z.int()),
    generating: z.boolean(),
    progress: z.number().check(z.gte(0), z.lte(100)),
  }),
});
export type VoiceProviderConfig = z.infer<typeof voiceProviderConfigSchema>;

export const switchVoiceProviderBodySchema = z.object({ provider: voiceProviderSchema });
export const switchVoiceProviderResponseSchema = z.object({ message: z.string(), current: voiceProviderSchema });

export const generateSamplesResponseSchema = z.object({ started: z.boolean(), message: z.string() });

export const voicePreviewInputSchema = z.object({
  compositeVoiceId: z.string(),
  voiceId: z.string(),
  voiceName: z.string(),
  language: voiceLanguageSchema,
  provider: voiceProviderSchema,
});
export type VoicePreviewInput = z.infer<typeof voicePreviewInputSchema>;

/** Where a voice's static preview sample is served. */
export function voiceSamplePath(provider: z.infer<typeof voiceProviderSchema>, voiceId: string, language: string): string {
  return provider === 'azure'
    ? `/audio/voice-samples/native/${encodeURIComponent(voiceId)}.mp3`
    : `/audio/voice-samples/voice-${encodeURIComponent(voiceId)}-${language}.mp3`;
}
