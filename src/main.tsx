import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { ErrorBoundary } from './ui/ErrorBoundary';

// Composition root: the only file that wires browser globals into the UI.
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <ErrorBoundary onReload={() => window.location.reload()}>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
