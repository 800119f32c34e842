import { describe, expect, it } from 'vitest';
import { ADMIN_COMMAND_USAGE, parseAdminCommand } from './admin-command.js';

describe('npm run admin: the command line', () => {
  it('answers --help, -h and help with the usage alone, not "Unknown action" (issue 49)', () => {
    for (const flag of ['--help', '-h', 'help']) expect(parseAdminCommand([flag])).toEqual({ help: ADMIN_COMMAND_USAGE });
  });

  it('gives the usage for no action, and names an unknown one', () => {
    expect(parseAdminCommand([])).toEqual({ error: ADMIN_COMMAND_USAGE });
    expect(parseAdminCommand(['promote', 'x@example.com'])).toEqual({ error: `Unknown action "promote".\n${ADMIN_COMMAND_USAGE}` });
  });

  it('reads grant and revoke with one address', () => {
    expect(parseAdminCommand(['grant', 'Op@Example.com'])).toEqual({ action: 'grant', email: 'op@example.com' });
    expect(parseAdminCommand(['revoke'])).toEqual({ error: `Give exactly one e-mail address.\n${ADMIN_COMMAND_USAGE}` });
  });
});
