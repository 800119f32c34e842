import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { ReelsmithApi } from './reelsmith-api.js';
import { apiCall } from './tool-errors.js';
import { videoStatus } from './tools.js';

export const VIDEO_RESOURCE_TEMPLATE = 'reelsmith://videos/{id}';
export const videoResourceUri = (videoId: string) => `reelsmith://videos/${encodeURIComponent(videoId)}`;

/** Each finished video as a resource: its status and links, its storyboard and every version. */
export function registerVideoResources(server: McpServer, api: ReelsmithApi): void {
  const { client } = api;
  server.registerResource(
    'video',
    new ResourceTemplate(VIDEO_RESOURCE_TEMPLATE, {
      list: async () => {
        const { jobs } = await apiCall(() => client.list());
        return {
          resources: jobs
            .filter((job) => job.status === 'completed')
            .map((job) => ({
              uri: videoResourceUri(job.id),
              name: job.result?.title ?? job.params.topic,
              description: `Finished video "${job.result?.title ?? job.params.topic}": metadata, storyboard and links.`,
              mimeType: 'application/json',
            })),
        };
      },
    }),
    {
      title: 'Finished video',
      description: "A finished video's metadata (status, absolute video and poster links, duration, credits), storyboard and versions.",
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const videoId = decodeURIComponent(String(variables.id));
      const job = await apiCall(() => client.call('videoStatus', { params: { id: videoId } }), videoId);
      const video = videoStatus(api, job);
      // A video made before storyboards existed, or one that did not finish, has none: the rest still reads.
      const storyboard = await client.call('storyboard', { params: { id: videoId } }).catch(() => null);
      const { versions } = await apiCall(() => client.call('videoVersions', { params: { id: videoId } }), videoId);
      const document = {
        video,
        storyboard: storyboard && {
          ...storyboard,
          scenes: storyboard.scenes.map((scene) => ({ ...scene, imageUrl: scene.imageUrl && api.absolute(scene.imageUrl) })),
        },
        versions: versions.map((version) => ({
          ...version,
          videoUrl: api.absolute(version.videoUrl),
          ...(version.posterUrl ? { posterUrl: api.absolute(version.posterUrl) } : {}),
        })),
      };
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(document, null, 2) }] };
    },
  );
}

/** "Make a short about …": walks an agent through topic → storyboard check → render. */
export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'make_short',
    {
      title: 'Make a short about …',
      description: 'Make a short narrated video about a subject: choose a voice, generate, check the storyboard, fix scenes, render.',
      argsSchema: {
        about: z.string().describe('What the short is about, e.g. "why octopuses have three hearts".'),
        duration: z.string().optional().describe('30, 60 or 90 seconds (30 when left out).'),
        language: z.string().optional().describe('Narration language code: en, hi, de, es, ja, fr or pt (en when left out).'),
        style: z.string().optional().describe('Story style, e.g. educational, mysterious, funny (educational when left out).'),
      },
    },
    ({ about, duration, language, style }) => {
      const seconds = duration ?? '30';
      const lang = language ?? 'en';
      const text = [
        `Make a ${seconds}-second narrated short about: ${about}`,
        '',
        'Work with the Reelsmith tools, step by step:',
        `1. Call list_voices with language "${lang}" and pick a voice that suits the subject.`,
        `2. Call generate_video with topic "${about}", style "${style ?? 'educational'}", language "${lang}", duration ${seconds} and that voice ` +
          '(or, if research_articles finds a good Wikipedia article, a source built from it). It returns a videoId at once.',
        '3. Call get_video_status with the videoId (waitSeconds 30 lets it wait) until the status is completed; report a failure with its error.',
        '4. Call get_storyboard and read every scene: is each narration accurate, clear and in order, and does each picture prompt show what the line says?',
        '5. Fix what is weak with update_scene (by scene number): narration, picture prompt, or an uploaded picture id.',
        '6. If anything changed, call render_video, then get_video_status until the new version is completed.',
        '7. Answer with the videoUrl, the posterUrl and a one-line summary of each scene.',
      ].join('\n');
      return { messages: [{ role: 'user', content: { type: 'text', text } }] };
    },
  );
}
