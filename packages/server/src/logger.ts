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

/** Query parameters whose values are credentials: OAuth callbacks' code and state, e-mailed links' tokens. */
const SECRET_QUERY_PARAMETERS = new Set(['code', 'state', 'token', 'access_token', 'id_token', 'refresh_token', 'key']);

/** A request URL as the log may keep it: the values of credential-bearing query parameters blanked. */
export function redactQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // An undecodable name is kept as written.
      }
      return equals >= 0 && SECRET_QUERY_PARAMETERS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's own request serializer, with the URL's secrets blanked (an OAuth callback's code and state). */
function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactQuery(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function createLogger(level: LogLevel, stream?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { req: serializeRequest } };
  return stream ? pino(options, stream) : pino(options);
}
