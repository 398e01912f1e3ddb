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
import { followSystemScheme } from './platform/media';
import { bootEmbed } from './ui/embed/bootEmbed';
import { EmbedApp } from './ui/embed/EmbedApp';
import { parseEmbedOptions, withSharePrediction } from './ui/embed/embedOptions';
import { ErrorBoundary } from './ui/ErrorBoundary';

// Composition root of the embed: the only file that wires browser globals into its UI.
// The embed's first-paint steps that `npm run bench` times (bench/embedSteps.ts): its imports
// evaluated (the presets awaited by src/ui/io/bootLab.ts), its first run settled, its first render.
performance.mark('embed:main');
followSystemScheme();
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');
const search = window.location.search;
// The question box (`predict=1`) in a chunk of its own: its download starts now, beside the boot's.
const predictionChunk = () => import('./ui/embed/EmbedPrediction');
const askedInAddress = parseEmbedOptions(search).predict ? predictionChunk() : null;
// The explanations' panel (`panels=…,why`) likewise, in before the first render when shown.
const whyChunk = parseEmbedOptions(search).panels.includes('why')
  ? import('./ui/panels/Explanations')
  : null;
// The first scenario: share link › ?preset= › default (src/ui/io/startup.ts); an embed never
// touches the saved workspace (src/ui/embed/bootEmbed.ts).
// No share-link keeper: the embed has no Share button and no address bar, and its address is the
// author's snippet — the keeper would strip the hash from the frame's address at the reader's
// first edit (a reload of the frame would then lose the author's scenario) and watch for links
// pasted into an address bar the frame does not have.
const booted = bootEmbed();
void booted.lab.actions.settled().then(() => void performance.mark('embed:run-settled'));
const options = withSharePrediction(
  parseEmbedOptions(search),
  search,
  // A share link's `p=` is about its scenario: of no other run (a refused link's).
  booted.sharePrediction,
);
// In before the first render when the embed asks (a share link's `p=` may ask too): the question
// is on screen from the first frame and the height measured with it (ReserveHeight.tsx).
const prediction = options.predict
  ? (await (askedInAddress ?? predictionChunk())).EmbedPrediction
  : null;
const why = whyChunk ? (await whyChunk).Explanations : null;

// Rendered at once, before the first run ends (the lab's page waits up to 300 ms for it to
// render once): a docs page's frame says "Loading the run…" while the run is computed; the
// player's parts are rendered once it is in (EmbedApp.tsx), laid out at its end and start, and
// shown with their height reported once measured (ReserveHeight.tsx), so the host's frame is
// sized once.
performance.mark('embed:render');
createRoot(container).render(
  <StrictMode>
    <ErrorBoundary onReload={() => window.location.reload()}>
      <EmbedApp
        lab={booted.lab}
        page={booted.page}
        options={options}
        presetRef={booted.start.presetRef}
        prediction={prediction}
        why={why}
        linkRefused={booted.start.linkRefused}
      />
    </ErrorBoundary>
  </StrictMode>,
);
