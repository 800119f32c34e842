import type { RunContext } from '../run-context.js';
import { keepArticle, keptResearch, researchFor, wantsResearch, type ResearchOutput } from '../research.js';

/**
 * Research: the Wikipedia article a topic-only video (or a chosen article) is told from, kept in
 * the workspace so a resumed job does not ask again, and beside the video's artefacts for its
 * storyboard re-renders. Never fails the job: no article means the story is written as before.
 */
export async function researchStep(ctx: RunContext): Promise<ResearchOutput> {
  const { params, providers, run, signal, artefactDir } = ctx;
  // A storyboard render tells the creator's scenes; the article they came from is still credited.
  if (run.storyboard) return keptResearch(artefactDir);
  // Nothing to look up (research off, or not wanted): the outcome still says why.
  if (!providers.research || !wantsResearch(params)) return researchFor(params, providers.research, ctx.researchBudget, signal);
  const research = providers.research;
  const inputs = { topic: params.topic, language: params.language, source: params.source ?? null, research: research.name };
  const { output } = await ctx.step('research', inputs, () => researchFor(params, research, ctx.researchBudget, signal));
  keepArticle(artefactDir, output);
  return output;
}
