import { ReelsmithApiError } from '@reelsmith/sdk';

/**
 * An error a tool reports to the agent (the MCP SDK turns a thrown error into a result with
 * `isError: true` and this message), worded so the agent knows what to change.
 */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** The same words whether the video is another account's or does not exist: nothing is revealed. */
export const noSuchVideo = (videoId: string) =>
  new ToolError(`No video with id ${videoId} in this account. list_videos shows the ids of your videos.`);

/**
 * Turns an API answer into a tool error: the API's own message (4xx messages say exactly what is
 * wrong; 5xx ones never carry internals), with the field it names, so the agent can fix that argument.
 */
export function toToolError(error: unknown, videoId?: string): Error {
  if (!(error instanceof ReelsmithApiError)) return error instanceof Error ? error : new Error(String(error));
  if (error.status === 404 && videoId !== undefined && error.field === undefined) return noSuchVideo(videoId);
  if (error.status === 401) return new ToolError(`The API key was refused: ${error.message}`);
  return new ToolError(error.field ? `${error.field}: ${error.message}` : error.message);
}

/** Runs one API call of a tool, reporting its failure as a tool error. */
export async function apiCall<T>(call: () => Promise<T>, videoId?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toToolError(error, videoId);
  }
}
