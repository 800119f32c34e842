import { describe, expect, it } from 'vitest';
import { stepName } from './step-names.js';

describe('the admin pages name the pipeline steps', () => {
  it('in words, as the throughput table does, never the stored "story" (issue 49)', () => {
    expect(['setup', 'story', 'voice', 'images', 'video'].map(stepName)).toEqual(['Setup', 'Story', 'Voice', 'Pictures', 'Render']);
    expect(stepName('research')).toBe('research');
  });
});
