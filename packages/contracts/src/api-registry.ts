import type { z } from './zod.js';
import { STUDIO_ROUTES } from './routes.js';
import { MORE_ROUTES } from './routes-more.js';

/**
 * Every HTTP call of the public API plus the few the product adds (logout, auth config, analytics,
 * sample generation, payment webhook). The server registers each with these schemas; the client
 * parses each response with the same ones (api-client.ts looks a name up in STUDIO_ROUTES, then in
 * the lazily loaded MORE_ROUTES).
 */
export const API = { ...STUDIO_ROUTES, ...MORE_ROUTES } as const;

export type ApiName = keyof typeof API;
export type ApiResponse<N extends ApiName> = z.infer<(typeof API)[N]['response']>;
export type ApiBody<N extends ApiName> = (typeof API)[N] extends { body: infer B extends z.ZodMiniType } ? z.input<B> : never;
export type ApiQuery<N extends ApiName> = (typeof API)[N] extends { query: infer Q extends z.ZodMiniType } ? z.input<Q> : never;
export type ApiParams<N extends ApiName> = (typeof API)[N] extends { params: infer P extends z.ZodMiniType } ? z.input<P> : never;
