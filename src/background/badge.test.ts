import { describe, expect, it } from 'vitest';
import { BADGE_COLOR, showActiveJobCount } from './badge.js';
import { fakeAction } from './testing/fake-chrome.js';

describe('showActiveJobCount', () => {
  it('shows the count while jobs run and clears it after', async () => {
    const action = fakeAction();
    await showActiveJobCount(action as never, 2);
    expect(action.state).toEqual({ text: '2', color: BADGE_COLOR });
    await showActiveJobCount(action as never, 0);
    expect(action.state.text).toBe('');
  });
});
