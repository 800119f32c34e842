import { fakeAudio } from './fake-media.js';
import { startFakeHttpServer, type FakeServer, type RecordedRequest, type ScriptedResponse } from './fake-http-server.js';

export interface FakeElevenLabsServerOptions {
  /** The key requests must carry in xi-api-key. */
  apiKey: string;
  /** When set, other voice ids get ElevenLabs' voice_not_found answer. */
  voiceIds?: string[];
}

/** ElevenLabs' error body: {"detail": {"status", "message"}}. */
export function elevenLabsError(status: number, code: string, message: string, headers?: Record<string, string>): ScriptedResponse {
  return { status, headers, body: { detail: { status: code, message } } };
}

const OUTPUT_FORMATS: Record<string, { sampleRate: number; bitrateKbps: number }> = {
  mp3_22050_32: { sampleRate: 22_050, bitrateKbps: 32 },
  mp3_44100_64: { sampleRate: 44_100, bitrateKbps: 64 },
  mp3_44100_128: { sampleRate: 44_100, bitrateKbps: 128 },
};

/** Seconds the fake voice spends on a character: letters, spaces and punctuation pace differently. */
function characterSeconds(character: string): number {
  if (/\s/u.test(character)) return 0.04;
  if (/[.,!?;:。、！？，]/u.test(character)) return 0.12;
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(character)) return 0.16;
  return 0.065;
}

/**
 * ElevenLabs' text to speech with timestamps (POST /v1/text-to-speech/{voice_id}/with-timestamps)
 * returning real MP3 and a character alignment, plus GET /v1/models and GET /v1/user, with its
 * error bodies (invalid_api_key, voice_not_found, FastAPI validation errors).
 */
export async function startFakeElevenLabsServer(options: FakeElevenLabsServerOptions): Promise<FakeServer> {
  return startFakeHttpServer(async (request) => {
    const key = request.headers['xi-api-key'];
    if (key === undefined)
      return elevenLabsError(401, 'needs_authorization', 'Neither authorization header nor xi-api-key received, please provide one.');
    if (key !== options.apiKey) return elevenLabsError(401, 'invalid_api_key', 'Invalid API key');
    const { pathname } = request.url;
    if (request.method === 'GET' && pathname === '/v1/models') {
      return {
        status: 200,
        body: [
          { model_id: 'eleven_multilingual_v2', name: 'Eleven Multilingual v2', can_do_text_to_speech: true },
          { model_id: 'eleven_flash_v2_5', name: 'Eleven Flash v2.5', can_do_text_to_speech: true },
        ],
      };
    }
    if (request.method === 'GET' && pathname === '/v1/user') {
      return {
        status: 200,
        body: {
          user_id: 'fake-user',
          subscription: { tier: 'creator', character_count: 1_234, character_limit: 100_000, status: 'active' },
        },
      };
    }
    const match = /^\/v1\/text-to-speech\/([^/]+)\/with-timestamps$/.exec(pathname);
    if (request.method === 'POST' && match?.[1]) return synthesize(request, decodeURIComponent(match[1]), options);
    return { status: 404, body: { detail: 'Not Found' } };
  });
}

async function synthesize(request: RecordedRequest, voiceId: string, options: FakeElevenLabsServerOptions): Promise<ScriptedResponse> {
  if (options.voiceIds && !options.voiceIds.includes(voiceId)) {
    return elevenLabsError(404, 'voice_not_found', `A voice with the voice_id ${voiceId} was not found.`);
  }
  const formatName = request.url.searchParams.get('output_format') ?? 'mp3_44100_128';
  const format = OUTPUT_FORMATS[formatName];
  if (!format) {
    return {
      status: 422,
      body: {
        detail: [
          {
            type: 'enum',
            loc: ['query', 'output_format'],
            msg: `Input should be one of ${Object.keys(OUTPUT_FORMATS).join(', ')}`,
            input: formatName,
          },
        ],
      },
    };
  }
  let body: { text?: unknown; model_id?: unknown };
  try {
    body = request.json();
  } catch {
    return { status: 422, body: { detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {} }] } };
  }
  if (typeof body.text !== 'string' || body.text.length === 0) {
    return { status: 422, body: { detail: [{ type: 'missing', loc: ['body', 'text'], msg: 'Field required', input: body }] } };
  }

  const characters = Array.from(body.text);
  const starts: number[] = [];
  const ends: number[] = [];
  let cursor = 0.1;
  for (const character of characters) {
    starts.push(Math.round(cursor * 1000) / 1000);
    cursor += characterSeconds(character);
    ends.push(Math.round(cursor * 1000) / 1000);
  }
  const alignment = { characters, character_start_times_seconds: starts, character_end_times_seconds: ends };
  const audio = await fakeAudio({ format: 'mp3', seconds: cursor + 0.2, sampleRate: format.sampleRate, bitrateKbps: format.bitrateKbps });
  return {
    status: 200,
    body: { audio_base64: audio.toString('base64'), alignment, normalized_alignment: alignment },
  };
}
