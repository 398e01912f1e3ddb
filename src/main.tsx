import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { EmbedApp } from './ui/embed/EmbedApp';
import { sharePredictionFromLocation } from './platform/share';
import { isEmbed, parseEmbedOptions, withSharePrediction } from './ui/embed/embedOptions';
import { bootPage } from './ui/io/boot';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { BatchLab } from './ui/batch/BatchLab';
import { findBatchPreset } from './scenarios/library/batch';

// Composition root: the only file that wires browser globals into the UI.
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

// `?embed`: the compact player for iframes (src/ui/embed). Same page, same URL scheme: any share
// link becomes an embed by adding `?embed`, and there is one file to deploy on any static host.
const embed = isEmbed(window.location.search);
// `?batch=<preset-id>`: a batch preset on the batch page (src/ui/batch), until the lab draws batch runs.
const batchRef = new URLSearchParams(window.location.search).get('batch');
const batchPreset = batchRef === null ? null : findBatchPreset(batchRef);
// The first scenario: share link › ?preset= › saved workspace › default (src/ui/io/startup.ts).
const booted = bootPage({ embed });

createRoot(container).render(
  <StrictMode>
    <ErrorBoundary onReload={() => window.location.reload()}>
      {batchPreset ? (
        <BatchLab initial={batchPreset.variant.scenario} />
      ) : embed ? (
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
