import type { z } from './zod.js';

export type AuthMode = 'none' | 'optional' | 'bearer' | 'bearerOrApiKey' | 'apiKey' | 'admin';

export interface RouteContract {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  auth: AuthMode;
  /** True when an embed session (POST /api/embed/sessions) may call it: generating, listing and reading videos. */
  embed?: boolean;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response: z.ZodMiniType;
  /** The success status when it is not 200 (e.g. 202 for work that continues in the background). */
  status?: 201 | 202;
  /** Error statuses whose body carries more than the usual error (e.g. a 412 with the current version, a 400 listing a batch's bad rows). */
  errorResponses?: { 400?: z.ZodMiniType; 412?: z.ZodMiniType };
  /** The multipart/form-data field holding a file the route also accepts instead of its JSON body (a batch's CSV). */
  multipartFile?: string;
}

/** Declares one route; `const` keeps its literal method, path and schemas in the type. */
export const route = <const R extends RouteContract>(r: R): R => r;
