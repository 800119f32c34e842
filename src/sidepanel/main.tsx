import { JobRealtimeProvider, StudioApp } from '@reelsmith/studio';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { createExtensionHost } from '../extension-host/extension-platform.js';
import { chromeJobSourceDeps } from '../extension-host/extension-job-source.js';
import { createWorkerJobRealtime } from '../extension-host/worker-job-realtime.js';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from the side panel page');

const { platform, services } = await createExtensionHost();
// The studio's live job channel comes from the background worker, which owns the one socket.
const realtime = createWorkerJobRealtime(chromeJobSourceDeps());
createRoot(container).render(
  <StrictMode>
    <MemoryRouter>
      <JobRealtimeProvider createRealtime={() => realtime}>
        <StudioApp platform={platform} services={services} />
      </JobRealtimeProvider>
    </MemoryRouter>
  </StrictMode>,
);
