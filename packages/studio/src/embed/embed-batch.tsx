import { BatchComposer } from '../batch/batch-page.js';
import { BatchProgress } from '../batch/batch-progress.js';
import { useServices } from '../services.js';
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
  if (batchId) return <BatchProgress batchId={batchId} onNew={() => onBatch(null)} />;
  return (
    <BatchComposer
      onQueued={(id) => {
        embedBatchesFor(services).track(id);
        onBatch(id);
      }}
    />
  );
}
