import { createStudioServices, guardWindowUnload, JobServiceProvider, StudioApp } from '@reelsmith/studio';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { createExtensionHost } from '../extension-host/extension-platform.js';
import { createFormRequests } from '../extension-host/form-requests.js';
import { createWorkerJobService } from '../extension-host/worker-job-service.js';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from the side panel page');

// The page's context menu leaves what the form should start from for the side panel (the popup has no menu of its own).
const { platform, services, jobs } = await createExtensionHost(createStudioServices, {
  formRequests: createFormRequests({ session: chrome.storage.session, onChanged: chrome.storage.onChanged }),
  guardUnload: () => guardWindowUnload(window),
});
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
