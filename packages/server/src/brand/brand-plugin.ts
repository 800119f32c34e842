import {
  API,
  CAPTION_TEMPLATE_ANIMATES,
  CAPTION_TEMPLATE_IDS,
  CAPTION_TEMPLATES,
  captionTemplate,
  type CaptionTemplateId,
} from '@reelsmith/contracts';
import { resolveFfmpegBinaries, renderCaptionPreview } from '@reelsmith/pipeline';
import fp from 'fastify-plugin';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { badRequest } from '../errors.js';
import { registerRoute } from '../http/register-route.js';
import { logoUploadRefusal } from '../uploads/upload-store.js';
import { findBrandKit, saveBrandKit } from './brand-store.js';

export const CAPTION_PREVIEW_PATH = '/api/caption-templates/:id/preview.png';

/**
 * Caption templates (the list, and a preview still of each, rendered by the product's own caption
 * renderer on first request and cached under DATA_DIR per template version) and the account's brand kit.
 */
export const brandPlugin = fp(
  async (app) => {
    const previewDir = join(app.config.paths.dataDir, 'caption-previews');
    const pending = new Map<string, Promise<void>>();

    registerRoute(app, API.captionTemplates, async () => ({
      templates: CAPTION_TEMPLATES.map((template) => ({
        id: template.id,
        name: template.name,
        previewUrl: `/api/caption-templates/${template.id}/preview.png?v=${template.version}`,
        animates: CAPTION_TEMPLATE_ANIMATES[template.id],
      })),
    }));

    app.get(CAPTION_PREVIEW_PATH, { schema: { params: z.object({ id: z.enum(CAPTION_TEMPLATE_IDS) }) } }, async (request, reply) => {
      const { id } = request.params as { id: CaptionTemplateId };
      const template = captionTemplate(id)!;
      const file = join(previewDir, `${id}-v${template.version}.png`);
      if (!existsSync(file)) {
        let render = pending.get(file);
        if (!render) {
          render = renderCaptionPreview(id, file, resolveFfmpegBinaries()).finally(() => pending.delete(file));
          pending.set(file, render);
        }
        await render;
      }
      return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(createReadStream(file));
    });

    registerRoute(app, API.brand, async (request) => findBrandKit(app.db, request.user.id));

    registerRoute(app, API.updateBrand, async (request) => {
      const kit = request.body;
      const refusal = kit.logoUploadId ? await logoUploadRefusal(app.db, request.user.id, kit.logoUploadId) : null;
      if (refusal) throw badRequest(refusal, 'logoUploadId');
      await saveBrandKit(app.db, request.user.id, kit);
      return kit;
    });
  },
  { name: 'brand', fastify: '5.x', dependencies: ['auth', 'error-handler'] },
);
