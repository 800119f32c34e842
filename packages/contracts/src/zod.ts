/**
 * The contracts are written with zod's functional build (`zod/mini`): the same validation core as
 * the classic build, but its schemas carry no methods, so a bundle keeps only the parts it uses.
 * The classic build attaches every method (and its JSON Schema converter) to every schema, which
 * put about 90 KB of zod into the studio's first load, which a phone must get fast. The server validates with these
 * same schemas, and fastify-type-provider-zod works on the shared core.
 *
 * English messages: the classic build installs them when imported; the functional one does not,
 * so every contract module imports `z` from here and the locale is set once for server and client.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

export { z };
