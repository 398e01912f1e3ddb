import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { EmbedApp } from './ui/embed/EmbedApp';
import { sharePredictionFromLocation } from './platform/share';
import { isEmbed, parseEmbedOptions, withSharePrediction } from './ui/embed/embedOptions';
import { bootPage } from './ui/io/boot';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { followSystemScheme } from './platform/media';

// Composition root: the only file that wires browser globals into the UI.
followSystemScheme();
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

// `?embed`: the compact player for iframes (src/ui/embed). Same page, same URL scheme: any share
// link becomes an embed by adding `?embed`, and there is one file to deploy on any static host.
const embed = isEmbed(window.location.search);
// The first scenario: share link › ?preset= › saved workspace › default (src/ui/io/startup.ts).
const booted = bootPage({ embed });

createRoot(container).render(
  <StrictMode>
    <ErrorBoundary onReload={() => window.location.reload()}>
      {embed ? (
        <EmbedApp
          lab={booted.lab}
          page={booted.page}
          options={withSharePrediction(
            parseEmbedOptions(window.location.search),
            window.location.search,
            // A share link's `p=` is about its scenario: of no other run (a refused link's).
            booted.start.source === 'share' ? sharePredictionFromLocation() : null,
          )}
          presetRef={booted.start.presetRef}
          linkRefused={booted.start.linkRefused}
        />
      ) : (
        <App lab={booted.lab} page={booted.page} />
      )}
    </ErrorBoundary>
  </StrictMode>,
);
