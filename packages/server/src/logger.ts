import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * Paths pino blanks out wherever they appear in a log line. Request bodies are never logged (the
 * default request serializer keeps only method, url and addresses); these guard against anything
 * that carries credentials ending up in a logged object, such as headers or an error's context.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  'password',
  'currentPassword',
  'newPassword',
  'token',
  'credential',
  'jwtSecret',
  'key',
  'body',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.password_hash',
  '*.token',
  '*.credential',
  '*.jwtSecret',
  '*.key',
  '*.api_key',
  '*.body',
];

export function createLogger(level: LogLevel, stream?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return stream ? pino(options, stream) : pino(options);
}
