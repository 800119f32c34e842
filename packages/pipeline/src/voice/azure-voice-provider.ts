import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ProviderError, throwIfAborted } from '../errors.js';
import { parseJsonBody, requestWithRetry, type ProviderTransportOptions } from '../providers/http.js';
import type { ProviderHealthReport, SynthesisRequest, SynthesisResult, VoiceProvider } from '../providers/types.js';
import { constantBitrateDuration, probeAudioDuration } from './audio-duration.js';
import { estimateWordTimings } from './word-timing-estimate.js';

export interface AzureVoiceProviderOptions extends ProviderTransportOptions {
  key: string;
  /** Speech resource region, e.g. eastus; gives https://{region}.tts.speech.microsoft.com. */
  region?: string;
  /** Full TTS host instead of the region's (sovereign clouds, a proxy, a test server). */
  endpoint?: string;
  /** mp3 (default) or wav; the file extension of the written audio follows it. */
  audioFormat?: 'mp3' | 'wav';
  ffprobePath?: string;
}

const PROVIDER = 'azure';
const USER_AGENT = 'reelsmith';

const FORMATS = {
  mp3: { header: 'audio-24khz-48kbitrate-mono-mp3', extension: '.mp3', bytesPerSecond: 48_000 / 8, headerBytes: 0 },
  wav: { header: 'riff-24khz-16bit-mono-pcm', extension: '.wav', bytesPerSecond: 24_000 * 2, headerBytes: 44 },
} as const;

/** Locale for xml:lang when the voice name does not carry one (Azure voice names start with it). */
const DEFAULT_LOCALES: Record<string, string> = {
  en: 'en-US',
  hi: 'hi-IN',
  de: 'de-DE',
  es: 'es-ES',
  ja: 'ja-JP',
  fr: 'fr-FR',
  pt: 'pt-BR',
  ko: 'ko-KR',
  zh: 'zh-CN',
  it: 'it-IT',
};

/**
 * Azure AI Speech through its REST text to speech endpoint. The REST API returns audio only, so
 * word timings are estimated from the audio's measured duration.
 */
export function createAzureVoiceProvider(options: AzureVoiceProviderOptions): VoiceProvider {
  if (!options.endpoint && !options.region) {
    throw new Error('The Azure voice provider needs a region or an endpoint');
  }
  const host = (options.endpoint ?? `https://${options.region}.tts.speech.microsoft.com`).replace(/\/+$/, '');
  const format = FORMATS[options.audioFormat ?? 'mp3'];
  const common = { provider: PROVIDER, service: 'voice' as const, fetch: options.fetch, secrets: [options.key] };

  return {
    name: PROVIDER,
    wordsPerMinute: 150,

    async synthesize(request: SynthesisRequest, signal?: AbortSignal): Promise<SynthesisResult> {
      throwIfAborted(signal);
      const result = await requestWithRetry({
        ...common,
        url: `${host}/cognitiveservices/v1`,
        method: 'POST',
        headers: {
          'Ocp-Apim-Subscription-Key': options.key,
          'Content-Type': 'application/ssml+xml',
          'X-Microsoft-OutputFormat': format.header,
          'User-Agent': USER_AGENT,
        },
        body: buildSsml(request.text, request.voiceId, request.language),
        signal,
        retryDelaysMs: options.retryDelaysMs,
        timeoutMs: options.timeoutMs ?? 120_000,
      });
      if (result.body.length === 0) {
        throw new ProviderError('The voice service sent no audio; try again later', PROVIDER, true, result.status);
      }
      const audioPath = withExtension(request.outputPath, format.extension);
      await mkdir(dirname(audioPath), { recursive: true });
      await writeFile(audioPath, result.body);

      let durationSeconds: number;
      try {
        durationSeconds = await probeAudioDuration(audioPath, options.ffprobePath, signal);
      } catch {
        throwIfAborted(signal);
        durationSeconds = await constantBitrateDuration(audioPath, format.bytesPerSecond, format.headerBytes);
      }
      if (!(durationSeconds > 0)) {
        throw new ProviderError('The voice service sent audio that could not be read', PROVIDER, true, result.status);
      }
      return { audioPath, durationSeconds, words: estimateWordTimings(request.text, durationSeconds, request.language) };
    },

    async health(signal?: AbortSignal): Promise<ProviderHealthReport> {
      try {
        const result = await requestWithRetry({
          ...common,
          url: `${host}/cognitiveservices/voices/list`,
          headers: { 'Ocp-Apim-Subscription-Key': options.key, 'User-Agent': USER_AGENT },
          signal,
          retryDelaysMs: [],
          timeoutMs: 10_000,
        });
        const voices = parseJsonBody(result, PROVIDER, 'voice');
        const count = Array.isArray(voices) ? voices.length : 0;
        if (count === 0) return { name: PROVIDER, status: 'error', details: 'Reachable, but no voices are offered' };
        return { name: PROVIDER, status: 'healthy', details: `Reachable; ${count} voices available` };
      } catch (error) {
        return { name: PROVIDER, status: 'error', details: error instanceof Error ? error.message : 'Health check failed' };
      }
    },
  };
}

/** SSML for one voice; the locale comes from the voice name (en-US-JennyNeural) or the language. */
export function buildSsml(text: string, voiceName: string, language: string): string {
  const locale = /^([a-z]{2,3}-[A-Z]{2})-/.exec(voiceName)?.[1] ?? DEFAULT_LOCALES[language] ?? language;
  return (
    `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${escapeXml(locale)}">` +
    `<voice name="${escapeXml(voiceName)}">${escapeXml(text)}</voice></speak>`
  );
}

export function escapeXml(text: string): string {
  return (
    text
      // Control characters are not allowed in XML at all; the service would reject the SSML.
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

function withExtension(path: string, extension: string): string {
  return path.toLowerCase().endsWith(extension) ? path : `${path.replace(/\.[^./\\]+$/, '')}${extension}`;
}
