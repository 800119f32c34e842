import type { AdminUserDetail } from '@reelsmith/contracts';

export type PendingAction =
  { kind: 'suspend' | 'reactivate' | 'role' | 'grant' | 'reset' } | { kind: 'delete-video'; videoId: string; label: string };

/** What the confirmation dialog of each admin action says. */
export function dialogText(
  pending: PendingAction,
  user: AdminUserDetail['user'],
): { title: string; description: string; confirm: string; danger: boolean } {
  switch (pending.kind) {
    case 'suspend':
      return {
        title: `Suspend ${user.name}?`,
        description: `${user.email} is signed out everywhere at once: every session, open studio and API key stops working, and signing in is refused until you reactivate the account.`,
        confirm: 'Suspend',
        danger: true,
      };
    case 'reactivate':
      return {
        title: `Reactivate ${user.name}?`,
        description: `${user.email} can sign in again and their API keys work again.`,
        confirm: 'Reactivate',
        danger: false,
      };
    case 'role':
      return {
        title: `Change ${user.name}'s role?`,
        description: 'An admin sees every admin page and can act on any account. The role you set here is kept at every sign-in.',
        confirm: 'Change role',
        danger: false,
      };
    case 'grant':
      return {
        title: `Grant ${user.name} a plan?`,
        description: 'The plan starts now and is marked as a comp (not paid for). It replaces the plan they hold now.',
        confirm: 'Grant plan',
        danger: false,
      };
    case 'reset':
      return {
        title: `Reset ${user.name}'s usage?`,
        description: "This month's plan usage starts again from 0; videos already made stay.",
        confirm: 'Reset usage',
        danger: false,
      };
    case 'delete-video':
      return {
        title: 'Delete this video?',
        description: `"${pending.label}" is deleted for good (a running one is cancelled). The creator is not told.`,
        confirm: 'Delete video',
        danger: true,
      };
  }
}
