import { describe, expect, it } from 'vitest';
import { adoptSceneIds, sceneAt, sceneSpans, type StoryboardDraft } from './storyboard-model.js';

describe('scene places in the rendered video', () => {
  it('takes each rendered scene start, and none for a scene not rendered yet', () => {
    const spans = sceneSpans([
      { startSeconds: 0, durationSeconds: 5 },
      { startSeconds: 5.3, durationSeconds: 4 },
      { startSeconds: null, durationSeconds: null },
    ]);
    expect(spans).toEqual([{ start: 0, end: 5 }, { start: 5.3, end: 9.3 }, null]);
    expect(sceneAt(spans, 6)).toBe(1);
    expect(sceneAt(spans, 5.1)).toBe(-1);
    expect(sceneAt(spans, 20)).toBe(-1);
  });

  it('follows on from the scene before when a scene knows its length but not its start', () => {
    expect(
      sceneSpans([
        { startSeconds: 0, durationSeconds: 4 },
        { startSeconds: null, durationSeconds: 3 },
      ]),
    ).toEqual([
      { start: 0, end: 4 },
      { start: 4, end: 7 },
    ]);
  });
});

describe('adoptSceneIds', () => {
  const draft: StoryboardDraft = {
    title: 'T',
    voice: 'v',
    captionStyle: 'tiktok',
    enableCaptions: true,
    enableZoom: false,
    music: null,
    scenes: [
      { key: 's1', id: 's1', narration: 'a', imagePrompt: 'p', imageUrl: null, startSeconds: 0, durationSeconds: 1 },
      { key: 'new-x', narration: 'b typed later', imagePrompt: 'p', imageUrl: null, startSeconds: null, durationSeconds: null },
    ],
  };

  it('gives a saved new scene its server id and keeps what was typed since', () => {
    const next = adoptSceneIds(
      draft,
      new Map([
        ['s1', 's1'],
        ['new-x', 's9'],
      ]),
    );
    expect(next.scenes.map((scene) => [scene.key, scene.id, scene.narration])).toEqual([
      ['s1', 's1', 'a'],
      ['new-x', 's9', 'b typed later'],
    ]);
  });

  it('returns the same draft when nothing is new', () => {
    expect(adoptSceneIds(draft, new Map([['s1', 's1']]))).toBe(draft);
  });
});
