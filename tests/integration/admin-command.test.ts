import { buildApp, type App } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const PASSWORD = 'correct-horse-battery';

describe.each(TEST_DIALECTS)('npm run admin on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  const listed = `listed-${randomUUID().slice(0, 6)}@example.com`;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ ADMIN_EMAILS: listed, RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const admin = (...args: string[]) =>
    run('npx', ['tsx', 'packages/server/src/operator/admin-main.ts', ...args], {
      env: { ...process.env, ...database.env, ADMIN_EMAILS: listed },
    }).then(
      (result) => ({ code: 0, ...result }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  const register = (email: string) =>
    app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Op Erator', email, password: PASSWORD } });
  const roleAtLogin = async (email: string) =>
    (await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } })).json().user.role as string;

  it('grants and revokes the admin role in the database, outranking ADMIN_EMAILS', async () => {
    const email = `op-${randomUUID().slice(0, 6)}@example.com`;
    await register(email);
    const granted = await admin('grant', email.toUpperCase());
    expect(granted.stdout).toContain(`${email} is now an admin`);
    expect(await roleAtLogin(email)).toBe('admin');

    // A verified listed address revoked by the operator stays revoked at its next sign-in.
    await register(listed);
    await app.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('email', '=', listed).execute();
    expect(await roleAtLogin(listed)).toBe('admin');
    expect((await admin('revoke', listed)).stdout).toContain('is now a regular user');
    expect(await roleAtLogin(listed)).toBe('user');
  }, 60_000);

  it('says what is wrong with a bad command or an unknown address, changing nothing', async () => {
    const unknown = await admin('grant', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account uses nobody@example.com');
    const bad = await admin('promote', 'x@example.com');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Usage: npm run admin -- grant <email>');
  }, 60_000);
});
