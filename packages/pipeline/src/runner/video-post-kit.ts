import type { GenerationParams, PostKit } from '@reelsmith/contracts';
import type { GenerationOutput } from '../providers/types.js';
import { buildPostKit, postCreditLines } from '../story/post-kit.js';
import type { RunStory } from './steps/story-step.js';

/**
 * The post kit: the story writer's own (a model writes one) or one built from the story, either way
 * ending with the credits of what the video draws on and the AI-content notice.
 */
export function postKitFor(params: GenerationParams, story: RunStory, video: GenerationOutput): PostKit {
  const source = params.source;
  // A researched video's article is its source; its Commons pictures are credited with their licences.
  const article = video.attributions?.find((credit) => credit.kind === 'text');
  const credits = postCreditLines(params.language, {
    ...(article
      ? { source: { title: `Wikipedia: ${article.title} (${article.license})`, url: article.sourceUrl } }
      : source && source.kind !== 'script' && source.kind !== 'wikipedia'
        ? { source: { title: source.kind === 'article' ? (source.title ?? params.topic) : params.topic, url: source.url } }
        : {}),
    pictures: [
      ...(video.attributions ?? [])
        .filter((credit) => credit.kind === 'image')
        .map((credit) => ({ author: credit.author ?? credit.title, license: credit.license, sourceUrl: credit.sourceUrl })),
      ...(video.credits ?? []).map((credit) => ({ author: credit.author, license: credit.source, sourceUrl: credit.pageUrl })),
      ...(video.artwork ?? []).map((art) => ({ author: `${art.name} by ${art.author}`, license: art.licence, sourceUrl: art.url })),
    ],
  });
  return buildPostKit({
    title: story.post?.title ?? story.title,
    topic: params.topic,
    language: params.language,
    narration: story.scenes.map((scene) => scene.narration),
    credits,
    ...(story.post ? { written: story.post } : {}),
  });
}
