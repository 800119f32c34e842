import { ACTIVE_JOB_STATUSES, API, MESSAGES, type ApiKey, type JobStatus } from '@reelsmith/contracts';
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { isUniqueViolation } from '../db/connection.js';
import type { UserRow } from '../db/schema.js';
import { badRequest, conflict, unauthorized } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { countVideosUsed, findSubscription, planUsagePeriodStart } from '../payments/subscription-state.js';
import { normalizeEmail } from './auth-service.js';
import { toPublicUser } from './auth-user.js';
import { GOOGLE_MESSAGES } from './google.js';
import { createDummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';

export const AUTH_MESSAGES = {
  currentPasswordRequired: 'Enter your current password to set a new one',
  currentPasswordWrong: 'Current password is incorrect',
  newPasswordRequired: 'Enter the new password',
  googleAccountMismatch: 'This e-mail is already linked to a different Google account',
  signedInWithGoogle: 'Signed in with Google',
  accountCreatedWithGoogle: 'Account created with Google',
} as const;

/** Routes of spec section 7 "Authentication" plus logout, auth config and usage. */
export const authRoutesPlugin = fp(
  async (app) => {
    const { db, authService: auth } = app;
    const dummyHash = await createDummyPasswordHash();

    registerRoute(
      app,
      API.register,
      async (request) => {
        const { name, password } = request.body;
        const email = normalizeEmail(request.body.email);
        if (await auth.findUserByEmail(email)) throw conflict(MESSAGES.emailTaken, 'email');
        const passwordHash = await hashPassword(password);
        const now = new Date().toISOString();
        const user: UserRow = {
          id: randomUUID(),
          email,
          name,
          password_hash: passwordHash,
          google_sub: null,
          role: auth.roleFor(email),
          created_at: now,
          updated_at: now,
        };
        // One transaction: a rejected registration leaves no user, session or key behind.
        let created: { session: { id: string; expiresAt: Date }; apiKey: ApiKey };
        try {
          created = await db.transaction().execute(async (trx) => {
            await trx.insertInto('users').values(user).execute();
            const session = await auth.insertSession(user.id, request.headers['user-agent'], trx);
            const apiKey = await auth.createApiKey(user.id, undefined, trx);
            return { session, apiKey };
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict(MESSAGES.emailTaken, 'email');
          throw error;
        }
        const { token } = await auth.tokenFor(created.session, user.id);
        request.log.info({ userId: user.id }, 'account registered');
        return { user: toPublicUser(user), token, api_key: created.apiKey };
      },
      { preHandler: app.limitAuthAttempts },
    );

    registerRoute(
      app,
      API.login,
      async (request) => {
        const found = await auth.findUserByEmail(request.body.email);
        // Verify against a dummy hash when there is no password to check, so timing does not reveal accounts.
        const valid = await verifyPassword(found?.password_hash ?? dummyHash, request.body.password);
        if (!found || !found.password_hash || !valid) throw unauthorized(MESSAGES.invalidCredentials);
        const user = await auth.syncRole(found);
        const { token } = await auth.createSession(user.id, request.headers['user-agent']);
        return { user: toPublicUser(user), token };
      },
      { preHandler: app.limitAuthAttempts },
    );

    registerRoute(
      app,
      API.google,
      async (request) => {
        const verify = app.verifyGoogleCredential;
        if (!verify) throw badRequest(GOOGLE_MESSAGES.notConfigured);
        const identity = await verify(request.body.credential);

        let createdAccount = false;
        let user = await db.selectFrom('users').selectAll().where('google_sub', '=', identity.sub).executeTakeFirst();
        if (!user) {
          const byEmail = await auth.findUserByEmail(identity.email);
          if (byEmail) {
            // Google vouches for the e-mail (email_verified), so the existing account is linked to it.
            if (byEmail.google_sub && byEmail.google_sub !== identity.sub) throw conflict(AUTH_MESSAGES.googleAccountMismatch);
            const updatedAt = new Date().toISOString();
            await db.updateTable('users').set({ google_sub: identity.sub, updated_at: updatedAt }).where('id', '=', byEmail.id).execute();
            user = { ...byEmail, google_sub: identity.sub, updated_at: updatedAt };
          } else {
            const now = new Date().toISOString();
            user = {
              id: randomUUID(),
              email: identity.email,
              name: identity.name ?? identity.email.split('@')[0] ?? identity.email,
              password_hash: null,
              google_sub: identity.sub,
              role: auth.roleFor(identity.email),
              created_at: now,
              updated_at: now,
            };
            try {
              await db.insertInto('users').values(user).execute();
            } catch (error) {
              if (isUniqueViolation(error)) throw conflict(MESSAGES.emailTaken);
              throw error;
            }
            createdAccount = true;
          }
        }
        user = await auth.syncRole(user);
        const session = await auth.createSession(user.id, request.headers['user-agent']);
        const apiKey = await auth.firstApiKey(user.id);
        return {
          token: session.token,
          user: toPublicUser(user),
          api_key: apiKey,
          session_id: session.sessionId,
          message: createdAccount ? AUTH_MESSAGES.accountCreatedWithGoogle : AUTH_MESSAGES.signedInWithGoogle,
        };
      },
      { preHandler: app.limitAuthAttempts },
    );

    registerRoute(app, API.logout, async (request) => {
      if (request.user.sessionId) await auth.revokeSession(request.user.sessionId);
      return { success: true as const };
    });

    registerRoute(app, API.authConfig, async () => ({ googleClientId: app.config.google.clientId }));

    registerRoute(app, API.apiKeys, async (request) => ({ api_keys: await auth.listApiKeys(request.user.id) }));

    registerRoute(app, API.profile, async (request) => ({ user: toPublicUser(request.user) }));

    registerRoute(app, API.updateProfile, async (request) => {
      const { name, currentPassword, newPassword } = request.body;
      const email = normalizeEmail(request.body.email);
      const current = await auth.findUserById(request.user.id);
      if (!current) throw unauthorized(MESSAGES.sessionExpired);

      let passwordHash: string | undefined;
      if (newPassword !== undefined) {
        // An account made with Google has no password yet and may set one without a current one.
        if (current.password_hash) {
          if (currentPassword === undefined) throw badRequest(AUTH_MESSAGES.currentPasswordRequired, 'currentPassword');
          if (!(await verifyPassword(current.password_hash, currentPassword))) {
            throw badRequest(AUTH_MESSAGES.currentPasswordWrong, 'currentPassword');
          }
        }
        passwordHash = await hashPassword(newPassword);
      } else if (currentPassword !== undefined) {
        throw badRequest(AUTH_MESSAGES.newPasswordRequired, 'newPassword');
      }

      if (email !== current.email) {
        const owner = await auth.findUserByEmail(email);
        if (owner && owner.id !== current.id) throw conflict(MESSAGES.emailTaken, 'email');
      }

      const updatedAt = new Date().toISOString();
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('users')
            .set({ name, email, updated_at: updatedAt, ...(passwordHash ? { password_hash: passwordHash } : {}) })
            .where('id', '=', current.id)
            .execute();
          if (passwordHash) await auth.revokeOtherSessions(current.id, request.user.sessionId, trx);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(MESSAGES.emailTaken, 'email');
        throw error;
      }
      return { user: toPublicUser({ ...current, name, email }) };
    });

    registerRoute(app, API.usage, async (request) => {
      const now = new Date();
      const userId = request.user.id;
      // The same period and count as can-generate and GET /payments/subscription (subscription-state.ts).
      const periodStart = planUsagePeriodStart(await findSubscription(db, userId), now);
      const active = await db
        .selectFrom('video_jobs')
        .where('user_id', '=', userId)
        .where('status', 'in', ACTIVE_JOB_STATUSES as JobStatus[])
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .executeTakeFirstOrThrow();
      return {
        videosThisMonth: await countVideosUsed(db, userId, periodStart),
        videosTotal: await countVideosUsed(db, userId, null),
        activeJobs: Number(active.count),
        periodStart,
      };
    });
  },
  { name: 'auth-routes', fastify: '5.x', dependencies: ['config', 'database', 'auth', 'rate-limit', 'error-handler'] },
);
