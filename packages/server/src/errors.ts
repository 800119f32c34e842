import { STATUS_CODES } from 'node:http';

/**
 * An error whose message is written for the user. The error handler sends it as
 * `{statusCode, error, message, field?}`; any other error becomes a generic 500.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
    /**
     * quiet: an expected 5xx (a feature switched off) that was logged once at start, not logged per request.
     * details: fields the route's contract adds to its error body (a batch's invalid rows), sent beside the usual ones.
     */
    readonly options: { quiet?: boolean; details?: Record<string, unknown> } = {},
  ) {
    super(message);
  }
}

export const statusText = (statusCode: number): string => STATUS_CODES[statusCode] ?? 'Error';

export const badRequest = (message: string, field?: string) => new HttpError(400, message, field);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string, field?: string) => new HttpError(409, message, field);
export const tooManyRequests = (message: string) => new HttpError(429, message);
