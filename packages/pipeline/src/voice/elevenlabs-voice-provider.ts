import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ProviderError, throwIfAborted } from '../errors.js';
import { parseJsonBody, requestWithRetry, type ProviderErrorDetails, type ProviderTransportOptions } from '../providers/http.js';
import type { ProviderHealthReport, SynthesisRequest, SynthesisResult, VoiceProvider } from '../providers/types.js';
import { probeAudioDuration } from './audio-duration.js';
import { alignmentToWordTimings, type CharacterAlignment } from './elevenlabs-alignment.js';
import { estimateWordTimings } from './word-timing-estimate.js';

export interface ElevenLabsVoiceProviderOptions extends ProviderTransportOptions {
  apiKey: string;
  /** Default eleven_multilingual_v2: it speaks every language the studio offers. */
  modelId?: string;
  baseUrl?: string;
  ffprobePath?: string;
}

const PROVIDER = 'elevenlabs';
const OUTPUT_FORMAT = 'mp3_44100_128';
/** Models that accept language_code; the others detect the language and reject the parameter. */
const LANGUAGE_CODE_MODELS = /(?:turbo|flash)_v2_5|eleven_v3/;

interface TimestampedAudioResponse {
  audio_base64?: unknown;
  alignment?: CharacterAlignment | null;
  normalized_alignment?: CharacterAlignment | null;
}

/**
 * ElevenLabs text to speech with character timestamps (POST /v1/text-to-speech/{voice}/with-timestamps).
 * Writes MP3; the word timings come from the character alignment of the original text.
 */
export function createElevenLabsVoiceProvider(options: ElevenLabsVoiceProviderOptions): VoiceProvider {
  const baseUrl = (options.baseUrl ?? 'https://api.elevenlabs.io').replace(/\/+$/, '');
  const modelId = options.modelId ?? 'eleven_multilingual_v2';
  const common = {
    provider: PROVIDER,
    service: 'voice' as const,
    fetch: options.fetch,
    secrets: [options.apiKey],
    classifyError: classifyElevenLabsError,
  };

  return {
    name: PROVIDER,
    wordsPerMinute: 150,

    async synthesize(request: SynthesisRequest, signal?: AbortSignal): Promise<SynthesisResult> {
      throwIfAborted(signal);
      const url = new URL(`${baseUrl}/v1/text-to-speech/${encodeURIComponent(request.voiceId)}/with-timestamps`);
      url.searchParams.set('output_format', OUTPUT_FORMAT);
      const body: Record<string, unknown> = { text: request.text, model_id: modelId };
      if (LANGUAGE_CODE_MODELS.test(modelId)) body.language_code = request.language;

      const result = await requestWithRetry({
        ...common,
        url: url.toString(),
        method: 'POST',
        headers: { 'xi-api-key': options.apiKey, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(body),
        signal,
        retryDelaysMs: options.retryDelaysMs,
        timeoutMs: options.timeoutMs ?? 180_000,
      });
      const response = parseJsonBody(result, PROVIDER, 'voice') as TimestampedAudioResponse;
      if (typeof response.audio_base64 !== 'string' || response.audio_base64.length === 0) {
        throw new ProviderError('The voice service sent no audio; try again later', PROVIDER, true, result.status);
      }
      const audio = Buffer.from(response.audio_base64, 'base64');
      const audioPath = withExtension(request.outputPath, '.mp3');
      await mkdir(dirname(audioPath), { recursive: true });
      await writeFile(audioPath, audio);

      const alignment = usableAlignment(response.alignment) ?? usableAlignment(response.normalized_alignment);
      const alignedWords = alignment ? alignmentToWordTimings(alignment, request.language) : [];
      const lastAlignedEnd = alignedWords.at(-1)?.end ?? 0;
      let durationSeconds: number;
      try {
        durationSeconds = await probeAudioDuration(audioPath, options.ffprobePath, signal);
      } catch (error) {
        throwIfAborted(signal);
        if (lastAlignedEnd <= 0) {
          throw new ProviderError('The voice service sent audio that could not be read', PROVIDER, true, undefined, {
            cause: error,
          });
        }
        durationSeconds = lastAlignedEnd;
      }
      const words = alignedWords.length > 0 ? alignedWords : estimateWordTimings(request.text, durationSeconds, request.language);
      return { audioPath, durationSeconds, words };
    },

    async health(signal?: AbortSignal): Promise<ProviderHealthReport> {
      try {
        const result = await requestWithRetry({
          ...common,
          url: `${baseUrl}/v1/models`,
          headers: { 'xi-api-key': options.apiKey, Accept: 'application/json' },
          signal,
          retryDelaysMs: [],
          timeoutMs: 10_000,
        });
        const models = parseJsonBody(result, PROVIDER, 'voice');
        const ids = Array.isArray(models) ? models.map((model: { model_id?: unknown }) => model.model_id) : [];
        if (ids.length > 0 && !ids.includes(modelId)) {
          return { name: PROVIDER, status: 'error', details: `Reachable, but the model ${modelId} is not offered` };
        }
        return { name: PROVIDER, status: 'healthy', details: `Reachable; model ${modelId}` };
      } catch (error) {
        return { name: PROVIDER, status: 'error', details: error instanceof Error ? error.message : 'Health check failed' };
      }
    },
  };
}

/** ElevenLabs reports an exhausted quota as 401 and a missing voice as 400/404 with its own status codes. */
function classifyElevenLabsError(status: number, details: ProviderErrorDetails): ProviderError | undefined {
  switch (details.code) {
    case 'quota_exceeded':
      return new ProviderError(
        'The voice service account has run out of characters for this narration; top up the ElevenLabs plan or switch voice provider',
        PROVIDER,
        false,
        status,
      );
    case 'voice_not_found':
      return new ProviderError('The voice service does not know the chosen voice; pick another voice', PROVIDER, false, status);
    case 'missing_permissions':
      return new ProviderError('The voice service rejected the API key: it lacks the text to speech permission', PROVIDER, false, status);
    default:
      return undefined;
  }
}

function usableAlignment(alignment: CharacterAlignment | null | undefined): CharacterAlignment | undefined {
  if (!alignment || !Array.isArray(alignment.characters) || alignment.characters.length === 0) return undefined;
  if (!Array.isArray(alignment.character_start_times_seconds) || !Array.isArray(alignment.character_end_times_seconds)) {
    return undefined;
  }
  return alignment;
}

function withExtension(path: string, extension: string): string {
  return path.toLowerCase().endsWith(extension) ? path : `${path.replace(/\.[^./\\]+$/, '')}${extension}`;
}
