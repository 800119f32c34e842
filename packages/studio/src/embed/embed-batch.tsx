import { BatchComposer } from '../batch/batch-composer.js';
import { BatchProgress } from '../batch/batch-progress.js';
import { usePlatform } from '../platform.js';
import { useServices } from '../services.js';
import { watchEmbedBatches } from './embed-batch-watch.js';
import { embedBatchesFor } from './embed-batches.js';

export interface EmbedBatchProps {
  /** The batch being followed, kept by the embed so switching views does not lose it; null to compose one. */
  batchId: string | null;
  onBatch(batchId: string | null): void;
}

/**
 * The embedded studio's Batch view, loaded the first time it is opened: the web studio's composer
 * (list, shared options, the rows' check) and live progress list. A batch queued here is tracked, so
 * the partner page hears `batch-completed` when it ends.
 */
export default function EmbedBatch({ batchId, onBatch }: EmbedBatchProps) {
  const services = useServices();
  const platform = usePlatform();
  if (batchId) return <BatchProgress batchId={batchId} onNew={() => onBatch(null)} />;
  return (
    <BatchComposer
      onQueued={(id) => {
        const batches = embedBatchesFor(services);
        batches.track(id);
        const token = services.authStore.getState().token;
        if (token) watchEmbedBatches(batches, { url: platform.apiBaseUrl, token });
        onBatch(id);
      }}
      openPricing={() => platform.navigation.openTab('/pricing')}
    />
  );
}
