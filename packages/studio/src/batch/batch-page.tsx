import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../ui/page-header.js';
import { BatchComposer } from './batch-composer.js';
import { BatchProgress } from './batch-progress.js';

/** Batch: many videos from one list; /batch?id=<batch> follows a queued batch (a reload keeps it). */
export function BatchPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const batchId = params.get('id');
  return (
    <div className="rs-page">
      <PageHeader
        title="Batch"
        subtitle="Many videos from one list: paste topics or drop a CSV, pick the options once, and download them all as a zip."
      />
      {batchId ? (
        <BatchProgress batchId={batchId} onNew={() => void navigate('/batch')} />
      ) : (
        <BatchComposer
          onQueued={(id) => void navigate(`/batch?id=${encodeURIComponent(id)}`)}
          openPricing={() => void navigate('/pricing')}
        />
      )}
    </div>
  );
}
