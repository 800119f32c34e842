import { CoreProviders, createCoreServices } from '@reelsmith/studio/popup';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createExtensionHost } from '../extension-host/extension-platform.js';
import { PopupApp } from './popup-app.js';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from the popup page');

const { platform, services, jobs } = await createExtensionHost(createCoreServices);
createRoot(container).render(
  <StrictMode>
    {/* One screen, no router. Toasts at the top: the popup's Generate bar is at the bottom. */}
    <CoreProviders platform={platform} services={services} toastPosition="top-center">
      <PopupApp jobs={jobs} />
    </CoreProviders>
  </StrictMode>,
);
