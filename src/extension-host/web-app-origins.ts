import { parseWebAppOrigins } from './web-app-origins-parse.js';

/** The build's web app origins (see web-app-origins-parse.ts). */
export const WEB_APP_ORIGINS: readonly string[] = parseWebAppOrigins(
  import.meta.env.VITE_WEB_APP_ORIGINS,
  import.meta.env.VITE_API_BASE_URL ?? 'http://localhost:8080',
);
