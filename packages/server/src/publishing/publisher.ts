import type { Platform, PublicationPrivacy } from '@reelsmith/contracts';
import { open } from 'node:fs/promises';

/** The post the creator wrote for one platform: what a publication stores and its publisher sends. */
export interface PublicationPost {
  platform: Platform;
  title: string;
  description: string;
  hashtags: string[];
  privacy: PublicationPrivacy;
  /** ISO time; YouTube schedules on its side with it, the others are run at that time by the queue. */
  publishAt: string | null;
}

/** The finished video as a publisher needs it: local copies of its files and the post's text. */
export interface PublishInput extends PublicationPost {
  videoFile: string;
  videoBytes: number;
  durationSeconds: number | null;
  posterFile: string | null;
  /** SubRip text of the narration, when the video has its caption track. */
  captionsSrt: string | null;
  /** BCP 47 language of the narration (YouTube's defaultLanguage, the caption track's language). */
  language: string;
  /** Where Instagram fetches the MP4 from (PUBLIC_URL and the video's unguessable /output path). */
  publicVideoUrl: string;
  account: { id: string; name: string };
}

export interface PublishContext {
  /** A usable access token (refreshed before expiry). */
  accessToken(): Promise<string>;
  /** What an earlier, interrupted run of this publication left for resuming (JSON), or null. */
  remoteState: string | null;
  saveRemoteState(state: string | null): Promise<void>;
  /** Upload progress 0-100 (`uploading`), or the platform's processing (`processing`). */
  report(status: 'uploading' | 'processing', progress: number): Promise<void>;
  /** Waits between status polls; rejects when the publication is stopped. */
  sleep(ms: number): Promise<void>;
  pollIntervalMs: number;
  /** Polls of the platform's processing before giving up (transient: the next attempt resumes polling). */
  maxPolls: number;
}

export interface PublishOutcome {
  remoteId: string;
  url: string;
  /** Published, but something that goes with the post did not (captions, thumbnail) or is not there yet: said to the creator. */
  warning?: string;
}

export interface Publisher {
  publish(input: PublishInput, context: PublishContext): Promise<PublishOutcome>;
  /** YouTube holds a scheduled video private until its time: until then it can be kept private or deleted. */
  cancelScheduled?(remoteId: string, mode: 'keep' | 'delete', accessToken: string): Promise<void>;
}

/** `length` bytes of the file from `start` (uploads go in chunks, never the whole file in memory at once). */
export async function readRange(file: string, start: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
  const handle = await open(file, 'r');
  try {
    const buffer = new Uint8Array(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(buffer, read, length - read, start + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return read === length ? buffer : buffer.slice(0, read);
  } finally {
    await handle.close();
  }
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Text cut to a platform's limit (counted in code points, as the platforms count) without splitting
 * what a reader sees as one character: a Devanagari conjunct, an emoji with its modifiers.
 */
export function limitText(text: string, max: number): string {
  if ([...text].length <= max) return text;
  let kept = '';
  let length = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = [...segment].length;
    if (length + size > max) break;
    kept += segment;
    length += size;
  }
  return kept.trimEnd();
}

/** Remote state of a publication: a small JSON object, unreadable state counting as none. */
export function parseState<T extends object>(text: string | null): Partial<T> {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<T>) : {};
  } catch {
    return {};
  }
}
