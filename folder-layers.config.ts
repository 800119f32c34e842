/**
 * The folder layers of every package, checked by scripts/folder-layers.ts (its test runs in `npm test`).
 *
 * `layers` lists the entries under the package's source folder, lowest first: folders (`jobs/`) and
 * root-level files (`errors.ts`). An entry may import itself and the entries listed before it, never
 * one listed after it, so folders cannot import each other in a circle. Root-level files that the
 * list leaves out are the top layer: composition roots and entry points (`index.ts`, `app.ts`,
 * `main.ts`) that may import anything of their package and that no listed entry may import. Every
 * folder must be listed. Tests (`*.test.ts`) are left out: they may reach anywhere; their harnesses
 * and fixtures (`*-test-*.ts`) are held to the layers like any other file. Besides the layers,
 * no two files of a package may import each other in a circle, type-only imports included.
 *
 * `features` names entries of `layers` that may never import one another, whatever their order: a
 * feature (a screen and its parts) reaches another only through the shared zone below them (the
 * studio's `shared/`), where what two features use is promoted. The composition roots above them
 * (pages, the app shell, the embed) put features together.
 *
 * Imports between packages are ESLint's (eslint.config.ts): contracts ← pipeline ← server;
 * contracts ← studio ← src/*.
 */

export interface FolderLayers {
  /** The folder whose entries are layered, from the repository root. */
  readonly root: string;
  /** Lowest first: folders (`name/`) and root-level files (`name.ts`). */
  readonly layers: readonly string[];
  /** Entries of `layers` that may not import each other: they talk through the layers below them. */
  readonly features?: readonly string[];
}

export const FOLDER_LAYERS: Readonly<Record<string, FolderLayers>> = {
  // Flat: each module is one concept; only the file-circle rule applies.
  contracts: { root: 'packages/contracts/src', layers: [] },
  sdk: { root: 'packages/sdk/src', layers: [] },
  mcp: { root: 'packages/mcp/src', layers: [] },
  pipeline: {
    root: 'packages/pipeline/src',
    layers: [
      'errors.ts',
      'abortable-sleep.ts',
      'seeded-random.ts',
      'pipeline-config.ts',
      'sandbox/',
      'audio/',
      'providers/',
      'research/',
      'music/',
      'assembly/',
      'images/',
      'story/',
      'voice/',
      'runner/',
      'provider-registry.ts',
      'index.ts',
      'cli/',
      'testing/',
    ],
  },
  server: {
    root: 'packages/server/src',
    layers: [
      'encryption-key.ts',
      'config-schema.ts',
      'secrets-file.ts',
      'config.ts',
      'config-docs.ts',
      'logger.ts',
      'errors.ts',
      'db/',
      'app-settings.ts',
      'storage/',
      'uploads/',
      'events/',
      'outbound/',
      'http/',
      'payments/',
      'auth/',
      'output/',
      'plugins/',
      'voices/',
      'providers/',
      'video-jobs/',
      'webhooks/',
      'brand/',
      'sources/',
      'gallery/',
      'storyboard/',
      'post/',
      'jobs/',
      'publishing/',
      'admin/',
      'realtime/',
      'batches/',
      'operations/',
      'openapi/',
      'embed/',
      'mcp/',
      'operator/',
      'app.ts',
      'index.ts',
      'testing/',
    ],
  },
  studio: {
    root: 'packages/studio/src',
    layers: [
      'platform.ts',
      'toaster.tsx',
      'query-client.ts',
      'ui/',
      'routes/',
      'preferences/',
      'styles/',
      'api/',
      'analytics.ts',
      'auth/',
      'services.ts',
      'studio-services.ts',
      // What two features share: job tracking, voices, the plan's state, the video rows' parts, the generation fields.
      'shared/',
      'billing/',
      'videos/',
      'studio/',
      'batch/',
      'storyboard/',
      'settings/',
      'login/',
      'shell/',
      'admin/',
      'pages/',
      'app/',
      'embed/',
      'testing/',
    ],
    features: ['billing/', 'videos/', 'studio/', 'batch/', 'storyboard/', 'settings/', 'login/', 'admin/'],
  },
  // The web app and the extension's pages build on the extension host (the bridge to the background worker).
  entries: {
    root: 'src',
    layers: ['extension-host/', 'page-reader/', 'background/', 'options/', 'popup/', 'sidepanel/', 'web/'],
  },
};

/**
 * Imports that go up the layers today, let through until the change that removes each one is merged.
 * Delete an entry once its import is gone (the check fails while an entry matches no import).
 */
export const TEMPORARY_ALLOWED_IMPORTS: readonly { readonly package: string; readonly from: string; readonly to: string }[] = [];

/** File circles that exist today, let through the same way (the check fails once one is gone). */
export const TEMPORARY_ALLOWED_CYCLES: readonly { readonly package: string; readonly files: readonly string[] }[] = [];
