import { API, webhookEventTypeSchema, type WebhookDelivery } from '@reelsmith/contracts';
import { z } from 'zod';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { refuseUnlessPublic } from '../outbound/webhook-address.js';
import { webhookSecretCipher } from '../auth/api-keys.js';
import { generateWebhookSecret } from './webhook-signature.js';

export const WEBHOOK_NOT_FOUND_MESSAGE = 'No webhook with this id';
/** Webhooks one user may have at once: each job outcome is one delivery per webhook, retried up to 7 times. */
export const MAX_WEBHOOKS_PER_USER = 10;
export const WEBHOOK_LIMIT_MESSAGE = `You already have ${MAX_WEBHOOKS_PER_USER} webhooks, the most an account can have. Delete one in Settings → Developer to add another.`;
/** Deliveries listed per webhook, newest first. */
const DELIVERIES_LISTED = 100;

/** POST/GET/DELETE /api/webhooks and GET /api/webhooks/:id/deliveries; the dispatcher (job runtime) sends them. */
export const webhooksPlugin = fp(
  async (app) => {
    const { db } = app;
    const cipher = webhookSecretCipher(app.config.encryption.key);

    async function ownWebhook(userId: string, id: string) {
      const hook = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!hook) throw notFound(WEBHOOK_NOT_FOUND_MESSAGE);
      return hook;
    }

    registerRoute(app, API.createWebhook, async (request) => {
      const { url, events } = request.body;
      const refusal = await refuseUnlessPublic(url, app.config.webhookAllowPrivate);
      if (refusal) throw badRequest(refusal, 'url');
      const secret = generateWebhookSecret();
      const id = randomUUID();
      const createdAt = new Date().toISOString();
      const active = () => db.selectFrom('webhooks').where('user_id', '=', request.user.id).where('deleted_at', 'is', null);
      const count = async (query: ReturnType<typeof active>) =>
        Number((await query.select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).executeTakeFirstOrThrow()).n);
      if ((await count(active())) >= MAX_WEBHOOKS_PER_USER) throw conflict(WEBHOOK_LIMIT_MESSAGE, 'url');
      await db
        .insertInto('webhooks')
        .values({
          id,
          user_id: request.user.id,
          url,
          events: JSON.stringify([...new Set(events)]),
          secret_encrypted: cipher.encrypt(secret),
          created_at: createdAt,
          deleted_at: null,
        })
        .execute();
      // Concurrent creates can all pass the check above: each counts again once its row is in and
      // takes itself back when over the limit, so the limit is never exceeded (a race may refuse both).
      if ((await count(active())) > MAX_WEBHOOKS_PER_USER) {
        await db.deleteFrom('webhooks').where('id', '=', id).execute();
        throw conflict(WEBHOOK_LIMIT_MESSAGE, 'url');
      }
      request.log.info({ webhookId: id }, 'webhook created');
      return { id, secret };
    });

    registerRoute(app, API.webhooks, async (request) => {
      const rows = await db
        .selectFrom('webhooks')
        .select(['id', 'url', 'events', 'created_at'])
        .where('user_id', '=', request.user.id)
        .where('deleted_at', 'is', null)
        .orderBy('created_at', 'asc')
        .execute();
      return {
        webhooks: rows.map((row) => ({
          id: row.id,
          url: row.url,
          events: z.array(webhookEventTypeSchema).parse(JSON.parse(row.events)),
          createdAt: row.created_at,
        })),
      };
    });

    registerRoute(app, API.deleteWebhook, async (request) => {
      const hook = await ownWebhook(request.user.id, request.params.id);
      // Kept (soft-deleted) so its delivery log stays; pending deliveries stop at their next attempt.
      await db.updateTable('webhooks').set({ deleted_at: new Date().toISOString() }).where('id', '=', hook.id).execute();
      return { success: true as const };
    });

    registerRoute(app, API.webhookDeliveries, async (request) => {
      const hook = await ownWebhook(request.user.id, request.params.id);
      const deliveries = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', hook.id)
        .orderBy('created_at', 'desc')
        .limit(DELIVERIES_LISTED)
        .execute();
      const attempts =
        deliveries.length === 0
          ? []
          : await db
              .selectFrom('webhook_attempts')
              .selectAll()
              .where(
                'delivery_id',
                'in',
                deliveries.map((delivery) => delivery.id),
              )
              .orderBy('attempt', 'asc')
              .execute();
      return {
        deliveries: deliveries.map((delivery): WebhookDelivery => ({
          id: delivery.id,
          eventId: delivery.event_id,
          type: webhookEventTypeSchema.parse(delivery.type),
          status: delivery.status,
          nextAttemptAt: delivery.next_attempt_at,
          createdAt: delivery.created_at,
          attempts: attempts
            .filter((attempt) => attempt.delivery_id === delivery.id)
            .map((attempt) => ({
              attempt: Number(attempt.attempt),
              at: attempt.at,
              statusCode: attempt.status_code === null ? null : Number(attempt.status_code),
              error: attempt.error,
              durationMs: Number(attempt.duration_ms),
            })),
        })),
      };
    });
  },
  { name: 'webhooks', fastify: '5.x', dependencies: ['config', 'database', 'auth', 'error-handler'] },
);
