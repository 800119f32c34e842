import { ConfigError, loadConfig } from '../config.js';
import { createDatabase, migrateToLatest } from '../db/connection.js';
import { announceRoleChange, parseAdminCommand, setRoleByOperator } from './admin-command.js';

/** `npm run admin -- grant <email>` / `revoke <email>`: the operator sets a role without signing in. */
async function main(): Promise<number> {
  const command = parseAdminCommand(process.argv.slice(2));
  if ('help' in command) {
    console.log(command.help);
    return 0;
  }
  if ('error' in command) {
    console.error(command.error);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  const { db } = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    const changed = await setRoleByOperator(db, command);
    if (!changed) {
      console.error(`No account uses ${command.email}. The person must sign up first.`);
      return 1;
    }
    await announceRoleChange(config, changed.userId);
    console.log(`${command.email} is now ${changed.role === 'admin' ? 'an admin' : 'a regular user'}.`);
    return 0;
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
