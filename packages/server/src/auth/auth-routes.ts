import { ACCOUNT_MESSAGES, ACTIVE_JOB_STATUSES, API, MESSAGES, type ApiKey, type JobStatus } from '@reelsmith/contracts';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { isUniqueViolation } from '../db/connection.js';
import type { UserRow } from '../db/schema.js';
import { badRequest, conflict, tooManyRequests, unauthorized } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { countVideosUsed, findSubscription, findUsageResetAt, planUsagePeriodStart } from '../payments/subscription-state.js';
import { newAccountFields, normalizeEmail } from './auth-service.js';
import { toPublicUser } from '../http/auth-user.js';
import { createAccountMailOutbox, createAccountMailer } from './account-mail.js';
import { consumeEmailToken, issueEmailToken } from './email-tokens.js';
import { disconnectUserSockets, revokeSingleSession, revokeUserSessions } from './revoke-user-sessions.js';
import { GOOGLE_MESSAGES } from './google.js';
import {
  CLAIMED_ACCOUNT_MESSAGE,
  claimUnverifiedAccount,
  claimedAccountMail,
  endPlatformConnections,
  endWebhooks,
} from './claim-account.js';
import { isConfusableDomain } from './email-domain.js';
import { createDummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';

export const AUTH_MESSAGES = {
  currentPasswordRequired: 'Enter your current password to set a new one',
  currentPasswordWrong: 'Current password is incorrect',
  newPasswordRequired: 'Enter the new password',
  googleAccountMismatch: 'This e-mail is already linked to a different Google account',
  signedInWithGoogle: 'Signed in with Google',
  accountCreatedWithGoogle: 'Account created with Google',
  confusableDomain: 'This e-mail domain uses look-alike characters; type the address with the real domain',
} as const;

/** The authentication routes (register, login, Google, profile) plus logout, auth config and usage. */
export const authRoutesPlugin = fp(
  async (app) => {
    const { db, authService: auth } = app;
    const dummyHash = await createDummyPasswordHash();
    const mailer = createAccountMailer(app.config.mail, app.log);
    const outbox = createAccountMailOutbox(mailer);
    app.addHook('onClose', async () => {
      outbox.close();
      mailer.close();
    });

    /** Queues the verification mail; the link's token is made with it, off the request. */
    function sendVerification(userId: string, email: string, log: FastifyBaseLogger): void {
      outbox.enqueue(async () => {
        const token = await issueEmailToken(db, userId, 'verify_email', email);
        const link = `${app.config.publicUrl}/verify-email?token=${token}`;
        return {
          to: email,
          subject: 'Confirm your e-mail address for Reelsmith',
          text: `Confirm that ${email} is your address by opening this link:\n${link}\n\nIf you did not ask for this, ignore this e-mail.`,
          link,
        };
      }, log);
    }

    registerRoute(
      app,
      API.register,
      async (request) => {
        const { name, password } = request.body;
        const email = normalizeEmail(request.body.email);
        if (isConfusableDomain(email)) throw badRequest(AUTH_MESSAGES.confusableDomain, 'email');
        if (await auth.findUserByEmail(email)) throw conflict(MESSAGES.emailTaken, 'email');
        const passwordHash = await hashPassword(password);
        const now = new Date().toISOString();
        const user: UserRow = {
          id: randomUUID(),
          email,
          name,
          password_hash: passwordHash,
          google_sub: null,
          // Never admin at sign-up: ADMIN_EMAILS applies once the address is verified.
          role: 'user',
          created_at: now,
          updated_at: now,
          ...newAccountFields(now),
          email_verified_at: null,
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
        // Queued: a mail server that is slow or down never delays or fails the sign-up.
        sendVerification(user.id, email, request.log);
        return { user: toPublicUser(user), token, api_key: created.apiKey };
      },
      { preHandler: app.limitAuthAttempts },
    );

    registerRoute(
      app,
      API.login,
      async (request, reply) => {
        const email = normalizeEmail(request.body.email);
        const waitMs = app.signInThrottle.waitMs(email, request.ip);
        if (waitMs > 0) {
          reply.header('retry-after', String(Math.ceil(waitMs / 1000)));
          throw tooManyRequests(MESSAGES.rateLimited);
        }
        const found = await auth.findUserByEmail(email);
        // Verify against a dummy hash when there is no password to check, so timing does not reveal accounts.
        const valid = await verifyPassword(found?.password_hash ?? dummyHash, request.body.password);
        if (!found || !found.password_hash || !valid) {
          app.signInThrottle.recordFailure(email, request.ip);
          throw unauthorized(MESSAGES.invalidCredentials);
        }
        app.signInThrottle.recordSuccess(email, request.ip);
        const user = await auth.recordSignIn(found);
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
        let claimed = false;
        let user = await db.selectFrom('users').selectAll().where('google_sub', '=', identity.sub).executeTakeFirst();
        if (!user) {
          const byEmail = await auth.findUserByEmail(identity.email);
          if (byEmail) {
            // Google vouches for the e-mail (email_verified), so the existing account is linked to it.
            if (byEmail.google_sub && byEmail.google_sub !== identity.sub) throw conflict(AUTH_MESSAGES.googleAccountMismatch);
            if (byEmail.email_verified_at === null) {
              // Nobody ever proved this address, so whoever set the password may not be its owner: what
              // they opened ends before the owner gets the account (and any role ADMIN_EMAILS gives it).
              user = await claimUnverifiedAccount(app, byEmail, identity.sub);
              claimed = true;
              const notice = claimedAccountMail(user.email, app.config.publicUrl);
              outbox.enqueue(async () => notice, request.log);
            } else {
              const updatedAt = new Date().toISOString();
              await db.updateTable('users').set({ google_sub: identity.sub, updated_at: updatedAt }).where('id', '=', byEmail.id).execute();
              user = { ...byEmail, google_sub: identity.sub, updated_at: updatedAt };
            }
          } else {
            const now = new Date().toISOString();
            user = {
              id: randomUUID(),
              email: identity.email,
              name: identity.name ?? identity.email.split('@')[0] ?? identity.email,
              password_hash: null,
              google_sub: identity.sub,
              // Google vouches for the address (email_verified), so it counts as verified.
              role: auth.roleFor(identity.email, true),
              created_at: now,
              updated_at: now,
              ...newAccountFields(now),
              email_verified_at: now,
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
        user = await auth.recordSignIn(user);
        const session = await auth.createSession(user.id, request.headers['user-agent']);
        const apiKey = await auth.firstApiKey(user.id);
        return {
          token: session.token,
          user: toPublicUser(user),
          api_key: apiKey,
          session_id: session.sessionId,
          message: createdAccount
            ? AUTH_MESSAGES.accountCreatedWithGoogle
            : claimed
              ? CLAIMED_ACCOUNT_MESSAGE
              : AUTH_MESSAGES.signedInWithGoogle,
        };
      },
      { preHandler: app.limitAuthAttempts },
    );

    registerRoute(app, API.logout, async (request) => {
      if (request.user.sessionId) await revokeSingleSession(app, request.user.id, request.user.sessionId);
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

      const emailChanged = email !== current.email;
      if (emailChanged) {
        const owner = await auth.findUserByEmail(email);
        if (owner && owner.id !== current.id) throw conflict(MESSAGES.emailTaken, 'email');
        if (isConfusableDomain(email)) throw badRequest(AUTH_MESSAGES.confusableDomain, 'email');
      }

      // A new address takes effect only from the link sent to it (POST /auth/verify-email).
      const updatedAt = new Date().toISOString();
      await db
        .updateTable('users')
        .set({ name, updated_at: updatedAt, ...(passwordHash ? { password_hash: passwordHash } : {}) })
        .where('id', '=', current.id)
        .execute();
      if (passwordHash) {
        // A new password ends what the old one may have let someone else open: every other session and,
        // unless the owner keeps them, every API key (with its embed sessions and sockets).
        const keepApiKeys = request.body.keepApiKeys === true;
        if (!keepApiKeys) await auth.revokeAllApiKeys(current.id);
        await revokeUserSessions(app, current.id, { exceptSessionId: request.user.sessionId, includeApiKeys: !keepApiKeys });
      }
      if (emailChanged) sendVerification(current.id, email, request.log);
      return { user: { ...toPublicUser({ ...current, name }), pendingEmail: emailChanged ? email : null } };
    });

    registerRoute(
      app,
      API.verifyEmail,
      async (request) => {
        const used = await consumeEmailToken(db, request.body.token, 'verify_email');
        if (!used) throw badRequest(ACCOUNT_MESSAGES.verifyLinkInvalid, 'token');
        const user = await auth.findUserById(used.userId);
        if (!user) throw badRequest(ACCOUNT_MESSAGES.verifyLinkInvalid, 'token');
        if (used.email !== user.email) {
          const owner = await auth.findUserByEmail(used.email);
          if (owner && owner.id !== user.id) throw conflict(MESSAGES.emailTaken, 'email');
        }
        const now = new Date().toISOString();
        try {
          await db
            .updateTable('users')
            .set({ email: used.email, email_verified_at: now, updated_at: now })
            .where('id', '=', user.id)
            .execute();
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict(MESSAGES.emailTaken, 'email');
          throw error;
        }
        const synced = await auth.syncRole({ ...user, email: used.email, email_verified_at: now });
        if (synced.role !== user.role) await disconnectUserSockets(app, user.id);
        request.log.info({ userId: user.id, role: synced.role }, 'e-mail address verified');
        return { success: true as const, message: ACCOUNT_MESSAGES.emailVerified };
      },
      { preHandler: app.limitAuthAttempts },
    );

    registerRoute(app, API.resendVerification, async (request) => {
      const user = await auth.findUserById(request.user.id);
      if (!user) throw unauthorized(MESSAGES.sessionExpired);
      if (user.email_verified_at) return { success: true as const, message: ACCOUNT_MESSAGES.alreadyVerified };
      sendVerification(user.id, user.email, request.log);
      return { success: true as const, message: ACCOUNT_MESSAGES.verificationSent(user.email) };
    });

    registerRoute(
      app,
      API.forgotPassword,
      async (request) => {
        const email = normalizeEmail(request.body.email);
        // The same answer in the same time whether or not the account exists: the look-up, the link and
        // the mail all happen after the answer, in the mail queue, so neither the database nor the mail
        // server (slow, or down) shows in it.
        outbox.enqueue(async () => {
          const user = await auth.findUserByEmail(email);
          if (!user) return null;
          const token = await issueEmailToken(db, user.id, 'reset_password', user.email);
          const link = `${app.config.publicUrl}/reset-password?token=${token}`;
          return {
            to: user.email,
            subject: 'Reset your Reelsmith password',
            text: `Someone asked to reset the password of your Reelsmith account.\n\nSet a new password here (the link works once, for 30 minutes):\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.`,
            link,
          };
        }, request.log);
        return { success: true as const, message: ACCOUNT_MESSAGES.resetRequested };
      },
      { preHandler: app.limitAuthAttempts },
    );

    registerRoute(
      app,
      API.resetPassword,
      async (request) => {
        const used = await consumeEmailToken(db, request.body.token, 'reset_password');
        const user = used ? await auth.findUserById(used.userId) : undefined;
        // A link sent to an address the account no longer uses is void.
        if (!used || !user || used.email !== user.email) throw badRequest(ACCOUNT_MESSAGES.resetLinkInvalid, 'token');
        const passwordHash = await hashPassword(request.body.password);
        const now = new Date().toISOString();
        // The link reached the inbox, which proves the address.
        await db
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: now, email_verified_at: user.email_verified_at ?? now })
          .where('id', '=', user.id)
          .execute();
        // An address never confirmed before this link may have been registered by someone else: what
        // they set up (keys, webhooks) ends whatever the form asked, as when its owner signs in with Google.
        const wasUnconfirmed = user.email_verified_at === null;
        const keepApiKeys = request.body.keepApiKeys && !wasUnconfirmed;
        // Revoked, not deleted: every key check reads revoked_at, and the key list drops them.
        if (!keepApiKeys) await auth.revokeAllApiKeys(user.id);
        if (wasUnconfirmed) await endWebhooks(db, user.id);
        // Publishing connections end with the sessions: a reset means the password may have been someone else's.
        await endPlatformConnections(db, user.id);
        await revokeUserSessions(app, user.id, { exceptSessionId: null, includeApiKeys: !keepApiKeys });
        await auth.syncRole({ ...user, email_verified_at: user.email_verified_at ?? now });
        request.log.info({ userId: user.id, apiKeysKept: keepApiKeys }, 'password reset');
        return { success: true as const, message: keepApiKeys ? ACCOUNT_MESSAGES.passwordResetKeysKept : ACCOUNT_MESSAGES.passwordReset };
      },
      { preHandler: app.limitAuthAttempts },
    );

    registerRoute(app, API.usage, async (request) => {
      const now = new Date();
      const userId = request.user.id;
      // The same period and count as can-generate and GET /payments/subscription (subscription-state.ts).
      const periodStart = planUsagePeriodStart(await findSubscription(db, userId), now, await findUsageResetAt(db, userId));
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
  {
    name: 'auth-routes',
    fastify: '5.x',
    dependencies: ['config', 'database', 'auth', 'rate-limit', 'error-handler', 'session-revocation'],
  },
);
