/**
 * The embed's page (`?embed`, src/ui/embed): the player alone. src/entry.ts loads this module for
 * an embed address instead of the lab's (src/main.tsx), so an iframe in a docs page fetches none
 * of the lab's panels, dialogs and pages (issue 31: the embed ≤ 150 KB gzip).
 */
// First: it starts the simulation's download before the rest of the entry evaluates.
import './platform/simulationChunk';
// Then the presets the address opens: their download starts too (src/ui/io/firstPresets.ts).
import './ui/io/firstPresets';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { sharePredictionFromLocation } from './platform/share';
import { followSystemScheme } from './platform/media';
import { EmbedApp } from './ui/embed/EmbedApp';
import { parseEmbedOptions, withSharePrediction } from './ui/embed/embedOptions';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { bootPage, firstRunOrSoon } from './ui/io/boot';

// Composition root of the embed: the only file that wires browser globals into its UI.
followSystemScheme();
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');
const search = window.location.search;
// The first scenario: share link › ?preset= › default (src/ui/io/startup.ts); an embed never
// touches the saved workspace.
const booted = bootPage({ embed: true });

// One render, with the first run when it is quick (as the lab's page does).
void firstRunOrSoon(booted.lab).then(() =>
  createRoot(container).render(
    <StrictMode>
      <ErrorBoundary onReload={() => window.location.reload()}>
        <EmbedApp
          lab={booted.lab}
          page={booted.page}
          options={withSharePrediction(
            parseEmbedOptions(search),
            search,
            // A share link's `p=` is about its scenario: of no other run (a refused link's).
            booted.start.source === 'share' ? sharePredictionFromLocation() : null,
          )}
          presetRef={booted.start.presetRef}
          linkRefused={booted.start.linkRefused}
        />
      </ErrorBoundary>
    </StrictMode>,
  ),
);
