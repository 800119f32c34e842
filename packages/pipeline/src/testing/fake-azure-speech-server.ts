import { fakeAudio } from './fake-media.js';
import { startFakeHttpServer, type FakeServer, type RecordedRequest, type ScriptedResponse } from './fake-http-server.js';

export interface FakeAzureSpeechServerOptions {
  /** The subscription key requests must carry in Ocp-Apim-Subscription-Key. */
  key: string;
}

/** Azure's gateway answer to a wrong key, as Cognitive Services sends it. */
export const AZURE_ACCESS_DENIED: ScriptedResponse = {
  status: 401,
  body: {
    error: {
      code: '401',
      message:
        'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
    },
  },
};

const OUTPUT_FORMATS: Record<string, { format: 'mp3' | 'wav'; sampleRate: number; bitrateKbps?: number; contentType: string }> = {
  'audio-24khz-48kbitrate-mono-mp3': { format: 'mp3', sampleRate: 24_000, bitrateKbps: 48, contentType: 'audio/mpeg' },
  'audio-24khz-96kbitrate-mono-mp3': { format: 'mp3', sampleRate: 24_000, bitrateKbps: 96, contentType: 'audio/mpeg' },
  'audio-16khz-32kbitrate-mono-mp3': { format: 'mp3', sampleRate: 16_000, bitrateKbps: 32, contentType: 'audio/mpeg' },
  'riff-24khz-16bit-mono-pcm': { format: 'wav', sampleRate: 24_000, contentType: 'audio/x-wav' },
  'riff-16khz-16bit-mono-pcm': { format: 'wav', sampleRate: 16_000, contentType: 'audio/x-wav' },
};

const VOICES = [
  voice('en-US-JennyNeural', 'Jenny', 'Female', 'en-US', 'English (United States)'),
  voice('en-US-GuyNeural', 'Guy', 'Male', 'en-US', 'English (United States)'),
  voice('ja-JP-NanamiNeural', 'Nanami', 'Female', 'ja-JP', 'Japanese (Japan)'),
  voice('hi-IN-MadhurNeural', 'Madhur', 'Male', 'hi-IN', 'Hindi (India)'),
];

/** Speech words per second of the fake voice; the returned audio lasts as long as the text takes at this rate. */
export const FAKE_AZURE_WORDS_PER_SECOND = 2.5;

/**
 * Azure AI Speech's REST text to speech: POST /cognitiveservices/v1 (SSML in, real MP3/WAV out) and
 * GET /cognitiveservices/voices/list, with its status codes for bad keys, media types and SSML.
 */
export async function startFakeAzureSpeechServer(options: FakeAzureSpeechServerOptions): Promise<FakeServer> {
  return startFakeHttpServer(async (request) => {
    if (request.headers['ocp-apim-subscription-key'] !== options.key) return AZURE_ACCESS_DENIED;
    const { pathname } = request.url;
    if (request.method === 'GET' && pathname === '/cognitiveservices/voices/list') return { status: 200, body: VOICES };
    if (request.method === 'POST' && pathname === '/cognitiveservices/v1') return synthesize(request);
    return { status: 404, body: { error: { code: '404', message: 'Resource not found' } } };
  });
}

async function synthesize(request: RecordedRequest): Promise<ScriptedResponse> {
  if (!String(request.headers['content-type'] ?? '').startsWith('application/ssml+xml')) return { status: 415 };
  const output = OUTPUT_FORMATS[String(request.headers['x-microsoft-outputformat'] ?? '')];
  if (!output) return { status: 400 };
  const text = spokenText(request.text);
  if (text === undefined) return { status: 400 };
  const words = text.split(/\s+/).filter(Boolean).length || [...text].length / 2;
  const audio = await fakeAudio({
    format: output.format,
    seconds: Math.max(1, words / FAKE_AZURE_WORDS_PER_SECOND),
    sampleRate: output.sampleRate,
    bitrateKbps: output.bitrateKbps,
  });
  return { status: 200, headers: { 'Content-Type': output.contentType }, body: audio };
}

/** The text inside <voice>, or undefined when the SSML is not what the service accepts. */
function spokenText(ssml: string): string | undefined {
  if (!/^\s*<speak\b[^>]*\bversion="1\.0"[^>]*\bxml:lang="[a-z]{2,3}-[A-Z]{2}"/.test(ssml)) return undefined;
  const match = /<voice\s+name="([^"]+)">([\s\S]*)<\/voice>\s*<\/speak>\s*$/.exec(ssml);
  if (!match?.[2]) return undefined;
  const inner = match[2];
  // A raw '<' or an unescaped '&' would make the SSML invalid XML.
  if (/<|&(?!(?:amp|lt|gt|quot|apos);)/.test(inner.replace(/<\/?[a-z:]+[^>]*>/g, ''))) return undefined;
  return inner
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

function voice(shortName: string, displayName: string, gender: string, locale: string, localeName: string) {
  return {
    Name: `Microsoft Server Speech Text to Speech Voice (${locale}, ${shortName.split('-')[2]})`,
    DisplayName: displayName,
    LocalName: displayName,
    ShortName: shortName,
    Gender: gender,
    Locale: locale,
    LocaleName: localeName,
    SampleRateHertz: '24000',
    VoiceType: 'Neural',
    Status: 'GA',
    WordsPerMinute: '150',
  };
}
