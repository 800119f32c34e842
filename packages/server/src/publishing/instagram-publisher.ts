import { graphApiError, INSTAGRAM_GRAPH_VERSION } from './oauth-clients.js';
import { formBody, platformFetch, PlatformError, stringField } from './platform-http.js';
import { limitText, parseState, type PublishContext, type PublishInput, type Publisher } from './publisher.js';

interface InstagramState {
  containerId: string;
  mediaId: string;
}

/** The Reel's caption: the post kit's title, description and hashtags (Instagram's limits: 2,200 characters, 30 hashtags). */
export function instagramCaption(input: PublishInput): string {
  const tags = input.hashtags.slice(0, 30).join(' ');
  const text = [input.title, input.description].filter(Boolean).join('\n\n');
  const room = 2200 - (tags ? tags.length + 2 : 0);
  return [limitText(text, Math.max(0, room)), tags].filter(Boolean).join('\n\n');
}

export function instagramPublisher(graphUrl: string): Publisher {
  const url = (path: string, params: Record<string, string>) => {
    const target = new URL(`${graphUrl}/${INSTAGRAM_GRAPH_VERSION}${path}`);
    target.search = formBody(params).toString();
    return target.toString();
  };

  /** Polls the container until Instagram is done with it: FINISHED, ERROR (with its reason) or EXPIRED; IN_PROGRESS when the polls ran out. */
  async function waitForContainer(containerId: string, context: PublishContext): Promise<{ code: string; reason: string | undefined }> {
    for (let poll = 0; poll < context.maxPolls; poll++) {
      const response = await platformFetch(
        'instagram',
        url(`/${containerId}`, { fields: 'status_code,status', access_token: await context.accessToken() }),
      );
      if (response.status !== 200) throw graphApiError(response, 'Instagram container status');
      const code = stringField(response.json, 'status_code') ?? 'IN_PROGRESS';
      if (code !== 'IN_PROGRESS') return { code, reason: stringField(response.json, 'status') };
      await context.sleep(context.pollIntervalMs);
    }
    return { code: 'IN_PROGRESS', reason: undefined };
  }

  return {
    async publish(input, context) {
      const state: Partial<InstagramState> = parseState<InstagramState>(context.remoteState);
      const save = () => context.saveRemoteState(JSON.stringify(state));
      if (!state.mediaId) {
        for (;;) {
          if (!state.containerId) {
            await context.report('uploading', 0);
            // Instagram fetches the video itself from a public address (Instagram Login has no upload of bytes).
            const response = await platformFetch('instagram', url(`/${input.account.id}/media`, {}), {
              method: 'POST',
              body: formBody({
                media_type: 'REELS',
                video_url: input.publicVideoUrl,
                caption: instagramCaption(input),
                share_to_feed: 'true',
                access_token: await context.accessToken(),
              }),
            });
            const id = stringField(response.json, 'id');
            if (response.status !== 200 || !id) throw graphApiError(response, 'Instagram Reel container');
            state.containerId = id;
            await save();
          }
          await context.report('processing', 0);
          const outcome = await waitForContainer(state.containerId, context);
          // PUBLISHED: an earlier run published it but stopped before recording the media id.
          if (outcome.code === 'FINISHED' || outcome.code === 'PUBLISHED') break;
          if (outcome.code === 'ERROR') {
            state.containerId = undefined;
            await save();
            throw new PlatformError('instagram', 'rejected', `Instagram: ${outcome.reason ?? 'the video could not be processed'}`);
          }
          if (outcome.code !== 'EXPIRED') throw new PlatformError('instagram', 'transient', 'Instagram is still processing the video');
          // Not published within 24 hours: a new container is made from the video.
          state.containerId = undefined;
          await save();
        }
        const published = await platformFetch('instagram', url(`/${input.account.id}/media_publish`, {}), {
          method: 'POST',
          body: formBody({ creation_id: state.containerId!, access_token: await context.accessToken() }),
        });
        const mediaId = stringField(published.json, 'id');
        if (published.status !== 200 || !mediaId) throw graphApiError(published, 'Instagram publish');
        state.mediaId = mediaId;
        await save();
      }
      const media = await platformFetch(
        'instagram',
        url(`/${state.mediaId}`, { fields: 'permalink', access_token: await context.accessToken() }),
      );
      const permalink = stringField(media.json, 'permalink');
      return { remoteId: state.mediaId, url: permalink ?? `https://www.instagram.com/${encodeURIComponent(input.account.name)}/` };
    },
  };
}
