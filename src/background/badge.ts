/** The toolbar badge: the number of active jobs, nothing when there are none. */
export type ActionLike = Pick<typeof chrome.action, 'setBadgeText' | 'setBadgeBackgroundColor'>;

export const BADGE_COLOR = '#8b5cf6';

export async function showActiveJobCount(action: ActionLike, count: number): Promise<void> {
  if (count > 0) await action.setBadgeBackgroundColor({ color: BADGE_COLOR });
  await action.setBadgeText({ text: count > 0 ? String(count) : '' });
}
