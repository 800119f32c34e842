import { createStudioServices, JobServiceProvider, StudioApp } from '@reelsmith/studio';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { createExtensionHost } from '../extension-host/extension-platform.js';
import { createWorkerJobService } from '../extension-host/worker-job-service.js';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from the side panel page');

const { platform, services, jobs } = await createExtensionHost(createStudioServices);
createRoot(container).render(
  <StrictMode>
    <MemoryRouter>
      {/* The background worker owns the one socket and submits for every extension view. */}
      <JobServiceProvider createJobService={({ effects }) => createWorkerJobService({ source: jobs, api: services.api, effects })}>
        <StudioApp platform={platform} services={services} />
      </JobServiceProvider>
    </MemoryRouter>
  </StrictMode>,
);
