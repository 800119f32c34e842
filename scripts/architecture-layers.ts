/**
 * The layer lists of docs/architecture.md, written from folder-layers.config.ts (the lists the layer
 * check holds the code to), so the page cannot drift from them: `npm run docs:architecture`
 * rewrites the marked section, scripts/architecture-layers.test.ts fails while the two differ.
 */
import { FOLDER_LAYERS, type FolderLayers } from '../folder-layers.config.js';

export const LAYERS_START =
  '<!-- layer lists: generated from FOLDER_LAYERS in folder-layers.config.ts by `npm run docs:architecture`; a test keeps them in step -->';
export const LAYERS_END = '<!-- end of the generated layer lists -->';

const code = (entry: string) => `\`${entry}\``;

function packageLine(name: string, layers: FolderLayers): string {
  const where = `**${name}** (${code(`${layers.root}/`)})`;
  if (layers.layers.length === 0) return `- ${where}: flat; only the file-circle rule applies.`;
  const features = layers.features ?? [];
  const featureNote =
    features.length > 0 ? ` Its features never import one another, whatever their order: ${features.map(code).join(', ')}.` : '';
  return `- ${where}, lowest first: ${layers.layers.map(code).join(', ')}.${featureNote}`;
}

/** The generated section, markers included. */
export function layerListsMarkdown(folderLayers: Readonly<Record<string, FolderLayers>> = FOLDER_LAYERS): string {
  const lines = Object.entries(folderLayers).map(([name, layers]) => packageLine(name, layers));
  return [LAYERS_START, ...lines, LAYERS_END].join('\n');
}

/** `page` with its marked section replaced by `section`; throws when the markers are missing. */
export function withLayerLists(page: string, section: string = layerListsMarkdown()): string {
  const start = page.indexOf(LAYERS_START);
  const end = page.indexOf(LAYERS_END);
  if (start < 0 || end < start) throw new Error('docs/architecture.md lacks the layer lists markers');
  return page.slice(0, start) + section + page.slice(end + LAYERS_END.length);
}
