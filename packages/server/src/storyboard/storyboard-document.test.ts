import { generateVideoBodySchema } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { applyEdit, documentFromFirstRender, toStoryboardView, UnknownSceneError, type StoryboardEdit } from './storyboard-document.js';

const params = generateVideoBodySchema.parse({ topic: 'Tides', style: 'mysterious', language: 'en', duration: 30, voice: 'en-us-f3' });
const rendered = [0, 1, 2].map((index) => ({
  narration: `Line ${index}`,
  imagePrompt: `shore ${index}`,
  imageSeed: index,
  imagePath: `/a/${index}.jpg`,
  startSeconds: index * 5,
  durationSeconds: 5,
}));
const first = documentFromFirstRender(params, 'Tides', rendered, [
  '/output/t/scene-1.jpg',
  '/output/t/scene-2.jpg',
  '/output/t/scene-3.jpg',
]);
const view = (document = first) =>
  toStoryboardView(document, { videoId: 'v', version: 1, durationSeconds: 30, rendersLeft: 20, revision: 'r1' });

function editOf(document = first): StoryboardEdit {
  return {
    title: document.title,
    voice: document.voice,
    captionStyle: document.captionStyle,
    enableCaptions: document.enableCaptions,
    enableZoom: document.enableZoom,
    scenes: document.scenes.map((scene) => ({ id: scene.id, narration: scene.narration, imagePrompt: scene.imagePrompt })),
  };
}

describe('storyboard documents', () => {
  it('shows a fresh render as unchanged, with its pictures and timings', () => {
    const board = view();
    expect(board.changed).toBe(false);
    expect(board.scenes.map((scene) => [scene.imageUrl, scene.startSeconds, scene.changed])).toEqual([
      ['/output/t/scene-1.jpg', 0, false],
      ['/output/t/scene-2.jpg', 5, false],
      ['/output/t/scene-3.jpg', 10, false],
    ]);
  });

  it('marks only the rewritten scene changed and keeps its picture as the thumbnail', () => {
    const edit = editOf();
    edit.scenes[1] = { ...edit.scenes[1]!, narration: 'A new line' };
    const board = view(applyEdit(first, edit));
    expect(board.scenes.map((scene) => scene.changed)).toEqual([false, true, false]);
    expect(board.scenes[1]).toMatchObject({ imageUrl: '/output/t/scene-2.jpg', startSeconds: null });
  });

  it('gives a regenerated picture a new seed and drops the old thumbnail', () => {
    const edit = editOf();
    edit.scenes[0] = { ...edit.scenes[0]!, regenerateImage: true };
    const next = applyEdit(first, edit);
    expect(next.scenes[0]!.imageSeed).not.toBe(first.scenes[0]!.imageSeed);
    expect(next.scenes[1]!.imageSeed).toBe(first.scenes[1]!.imageSeed);
    expect(view(next).scenes[0]).toMatchObject({ imageUrl: null, changed: true });
  });

  it('says what each rendered picture shows, and only while the picture is the one shown', () => {
    const withSubjects = documentFromFirstRender(
      params,
      'Tides',
      rendered.map((scene, index) => ({ ...scene, ...(index < 2 ? { subject: ['moon', 'water wave'][index] } : {}) })),
      ['/1.jpg', '/2.jpg', '/3.jpg'],
    );
    expect(view(withSubjects).scenes.map((scene) => scene.subject)).toEqual(['moon', 'water wave', undefined]);
    const edit = editOf(withSubjects);
    edit.scenes[1] = { ...edit.scenes[1]!, imagePrompt: 'a lighthouse' };
    expect(view(applyEdit(withSubjects, edit)).scenes.map((scene) => scene.subject)).toEqual(['moon', undefined, undefined]);
  });

  it('remembers what a regenerated picture showed, so the next one shows something else', () => {
    let document = documentFromFirstRender(
      params,
      'Tides',
      rendered.map((scene) => ({ ...scene, subject: 'moon' })),
      ['/1.jpg', '/2.jpg', '/3.jpg'],
    );
    const regenerate = () => {
      const edit = editOf(document);
      edit.scenes[0] = { ...edit.scenes[0]!, regenerateImage: true };
      return applyEdit(document, edit);
    };
    document = regenerate();
    expect(document.scenes[0]!.shownSubjects).toEqual(['moon']);
    expect(document.scenes[1]!.shownSubjects).toBeUndefined();
    // The next render showed the crescent moon; regenerating again passes over both.
    document = {
      ...document,
      scenes: document.scenes.map((scene, index) =>
        index === 0 ? { ...scene, rendered: { ...scene.rendered!, imageSeed: scene.imageSeed, subject: 'crescent moon' } } : scene,
      ),
    };
    document = regenerate();
    expect(document.scenes[0]!.shownSubjects).toEqual(['moon', 'crescent moon']);
    // A new prompt starts over.
    const edit = editOf(document);
    edit.scenes[0] = { ...edit.scenes[0]!, imagePrompt: 'a harbour at dawn' };
    expect(applyEdit(document, edit).scenes[0]!.shownSubjects).toBeUndefined();
  });

  it('credits a Commons picture while it is shown, and a regenerate passes over its file, not its subject', () => {
    const credit = {
      kind: 'image' as const,
      title: 'Common octopus on a reef',
      author: 'Ana Reef',
      license: 'CC BY-SA 4.0',
      licenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
      sourceUrl: 'https://commons.wikimedia.org/wiki/File:Common_octopus_on_a_reef.jpg',
    };
    const document = documentFromFirstRender(
      params,
      'Tides',
      rendered.map((scene, index) => ({ ...scene, subject: 'octopus', ...(index === 0 ? { attribution: credit } : {}) })),
      ['/1.jpg', '/2.jpg', '/3.jpg'],
    );
    expect(view(document).scenes.map((scene) => scene.attribution)).toEqual([credit, undefined, undefined]);
    const edit = editOf(document);
    edit.scenes[0] = { ...edit.scenes[0]!, regenerateImage: true };
    edit.scenes[1] = { ...edit.scenes[1]!, regenerateImage: true };
    const next = applyEdit(document, edit);
    // The same search then offers its next free picture; a painted scene moves on to another subject as before.
    expect(next.scenes[0]!.shownSubjects).toEqual(['File:Common octopus on a reef.jpg']);
    expect(next.scenes[1]!.shownSubjects).toEqual(['octopus']);
    // The credit leaves with the picture it belongs to.
    expect(view(next).scenes[0]!.attribution).toBeUndefined();
  });

  it('keeps a moved scene its seed (nothing is repainted) but marks the move', () => {
    const edit = editOf();
    edit.scenes.reverse();
    const next = applyEdit(first, edit);
    expect(next.scenes.map((scene) => scene.imageSeed)).toEqual([2, 1, 0]);
    expect(view(next).scenes.map((scene) => scene.changed)).toEqual([true, false, true]);
  });

  it('adds a new scene with a fresh id and seed, and says the caption change is a change', () => {
    const edit = editOf();
    edit.scenes.splice(1, 0, { narration: 'Extra', imagePrompt: 'gulls' });
    edit.captionStyle = 'netflix';
    const next = applyEdit(first, edit);
    expect(next.scenes).toHaveLength(4);
    expect(first.scenes.map((scene) => scene.id)).not.toContain(next.scenes[1]!.id);
    expect(next.scenes[1]!.imageSeed).toBeGreaterThanOrEqual(1000);
    expect(view(next).changed).toBe(true);
  });

  it('refuses a scene id that is not in the storyboard, or used twice', () => {
    const unknown = editOf();
    unknown.scenes[2] = { ...unknown.scenes[2]!, id: 'someone-elses' };
    expect(() => applyEdit(first, unknown)).toThrow(UnknownSceneError);
    const twice = editOf();
    twice.scenes[2] = { ...twice.scenes[2]!, id: twice.scenes[0]!.id! };
    expect(() => applyEdit(first, twice)).toThrow('Scene 3 is not part of this storyboard');
  });

  it('marks a scene told from the source as edited once its narration is rewritten, and only that scene', () => {
    const fromSource = documentFromFirstRender(
      params,
      'Tides',
      rendered.map((scene, index) => ({ ...scene, sourceSentences: [`Source sentence ${index}.`] })),
      ['/a.jpg', '/b.jpg', '/c.jpg'],
    );
    expect(view(fromSource).scenes.map((scene) => scene.narrationEdited)).toEqual([false, false, false]);
    const edit = editOf(fromSource);
    edit.scenes[1] = { ...edit.scenes[1]!, narration: 'Rewritten in my own words' };
    const next = applyEdit(fromSource, edit);
    expect(view(next).scenes.map((scene) => scene.narrationEdited)).toEqual([false, true, false]);
    expect(view(next).scenes[1]!.sourceSentences).toEqual(['Source sentence 1.']);
    // Put back as it was written from the source, it is no longer marked.
    const back = applyEdit(next, editOf(fromSource));
    expect(view(back).scenes.map((scene) => scene.narrationEdited)).toEqual([false, false, false]);
  });

  it('says nothing about edits for a scene that was not told from a source', () => {
    expect(view().scenes.every((scene) => scene.narrationEdited === undefined)).toBe(true);
  });
});
