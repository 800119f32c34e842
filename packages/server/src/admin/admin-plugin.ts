import { API, type ProviderType } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { HttpError } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import type { ProviderSwitchboard } from '../providers/provider-switchboard.js';

export const PROVIDERS_UNAVAILABLE_MESSAGE = 'Provider management is not available: this server runs with injected providers';

const TYPE_TITLE: Record<ProviderType, string> = { story: 'Story', images: 'Image', voice: 'Voice', research: 'Research' };

/**
 * The admin dashboard's provider routes: GET /providers, GET /providers/health (cached per
 * provider, see ProviderSwitchboard.health) and POST /providers/switch.
 *
 * Auth, as the contracts declare it: the provider list, health and switch are admin only (401
 * without a session, 403 for a signed-in user): they reveal which paid services and credentials
 * the server runs with, and a switch changes every creator's next video. GET /health stays public
 * as the cheap liveness probe and checks no provider. GET /api/websocket/stats (admin only) lives in the realtime plugin,
 * which owns the socket.io server.
 */
export const adminPlugin = fp(
  async (app) => {
    const switchboard = (): ProviderSwitchboard => {
      if (!app.providerSwitchboard) throw new HttpError(503, PROVIDERS_UNAVAILABLE_MESSAGE);
      return app.providerSwitchboard;
    };

    if (app.providerSwitchboard) {
      const board = app.providerSwitchboard;
      // The switchboard caches per provider, so a switched-to provider is checked at its first look.
      app.addHealthSource(() => board.health(), { cachesItself: true });
    }

    registerRoute(app, API.providers, async () => ({ providers: switchboard().list() }));

    // Cached (health plugin, switchboard): at most one upstream call per provider per 30 s, whoever asks.
    registerRoute(app, API.providersHealth, async (request) => {
      const { type, provider } = request.query;
      if (type && provider) return { health: [await switchboard().checkCached(type, provider)] };
      switchboard();
      return { health: await app.checkProviderHealth() };
    });

    registerRoute(app, API.switchProvider, async (request) => {
      const { type, provider } = request.body;
      const board = switchboard();
      const previous = board.current(type);
      const current = await board.switchTo(type, provider);
      request.log.info({ type, from: previous, to: current, by: request.user.id }, 'provider switched');
      return { message: `${TYPE_TITLE[type]} provider switched to ${current}. New jobs use it from now on.`, current };
    });
  },
  { name: 'admin', fastify: '5.x', dependencies: ['auth', 'error-handler', 'health', 'jobs', 'voices'] },
);
