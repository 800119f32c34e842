import '../../packages/studio/src/styles/theme.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { OptionsApp } from './options-app.js';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from the options page');
createRoot(container).render(
  <StrictMode>
    <OptionsApp />
  </StrictMode>,
);
