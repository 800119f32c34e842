/** One finished video of a batch, to go into the zip. */
export interface ZipVideo {
  name: string;
  url: string;
}

/**
 * The finished videos as one zip, built in the browser with fflate (loaded on the first "Download
 * all"). MP4s are already compressed, so they are stored as they are (no deflate: fast, no CPU spent
 * for nothing), each streamed into the archive as it arrives so a large batch is never held twice.
 */
export async function zipVideos(
  videos: readonly ZipVideo[],
  options: { fetch?: typeof fetch; onProgress?(done: number, total: number): void; signal?: AbortSignal } = {},
): Promise<Blob> {
  const { Zip, ZipPassThrough } = await import('fflate');
  const doFetch = options.fetch ?? fetch;
  const parts: Uint8Array[] = [];
  let failure: Error | null = null;
  let finished: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else parts.push(chunk);
    if (final || error) finished();
  });
  try {
    for (const [index, video] of videos.entries()) {
      const response = await doFetch(video.url, { signal: options.signal });
      if (!response.ok || !response.body) throw new Error(`${video.name} could not be downloaded (HTTP ${response.status}).`);
      const entry = new ZipPassThrough(video.name);
      zip.add(entry);
      const reader = response.body.getReader();
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        entry.push(value);
      }
      entry.push(new Uint8Array(0), true);
      options.onProgress?.(index + 1, videos.length);
    }
    zip.end();
  } catch (error) {
    zip.terminate();
    throw error;
  }
  await done;
  if (failure) throw failure;
  return new Blob(parts as BlobPart[], { type: 'application/zip' });
}
