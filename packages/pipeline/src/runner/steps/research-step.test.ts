import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateVideoBodySchema } from '@reelsmith/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import type { GenerationRun, ResearchProvider } from '../../providers/types.js';
import { hashInputs, writeCheckpoint } from '../checkpoint.js';
import type { ResearchOutput } from '../research.js';
import { createRunContext } from '../run-context.js';
import { researchStep } from './research-step.js';

const root = mkdtempSync(join(tmpdir(), 'reelsmith-research-step-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const article = { title: 'Octopus', url: 'https://en.wikipedia.org/wiki/Octopus', text: 'An octopus has eight arms.', language: 'en' };

/** A research provider that finds the octopus article and counts its look-ups. */
function countingResearch(): { research: ResearchProvider; lookups: () => number } {
  let lookups = 0;
  const research = {
    name: 'wikipedia',
    findArticles: async () => [],
    findArticle: async () => {
      lookups += 1;
      return { title: article.title, url: article.url, text: article.text };
    },
    readArticle: async () => null,
    findPictures: async () => [],
    downloadPicture: async () => Buffer.alloc(0),
  } as unknown as ResearchProvider;
  return { research, lookups: () => lookups };
}

function runFor(name: string, research: ResearchProvider): GenerationRun {
  const params = generateVideoBodySchema.parse({ topic: 'Octopus', language: 'en', duration: 30, style: 'educational', voice: 'en' });
  return {
    jobId: name,
    params,
    workspaceDir: join(root, name, 'workspace'),
    artefactDir: join(root, name, 'artefacts'),
    providers: { research } as unknown as GenerationRun['providers'],
  };
}

const options = { binaries: { ffmpegPath: 'ffmpeg', ffmpegSource: 'system' as const, ffprobePath: null } };

describe('the research step', () => {
  it('looks the article up once and keeps it in the workspace for a resumed run', async () => {
    const { research, lookups } = countingResearch();
    const run = runFor('fresh', research);
    const first = await researchStep(createRunContext(run, options));
    const again = await researchStep(createRunContext(run, options));
    expect(first.article?.title).toBe('Octopus');
    expect(again).toEqual(first);
    expect(lookups()).toBe(1);
  });

  it('resumes from a checkpoint written before research was a step (same folder, same key)', async () => {
    const { research, lookups } = countingResearch();
    const run = runFor('resumed', research);
    const key = hashInputs({ topic: 'Octopus', language: 'en', source: null, research: 'wikipedia' });
    const kept: ResearchOutput = { article, outcome: { used: true } };
    writeCheckpoint(join(run.workspaceDir, 'research', 'manifest.json'), key, kept);
    expect(await researchStep(createRunContext(run, options))).toEqual(kept);
    expect(lookups()).toBe(0);
    // The article is kept beside the video's artefacts for its storyboard re-renders.
    expect(readFileSync(join(run.artefactDir!, 'research.json'), 'utf8')).toContain('Octopus');
  });
});
