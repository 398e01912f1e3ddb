// First: it starts the simulation's download before the rest of the entry evaluates.
import './platform/simulationChunk';
import { lazy, StrictMode, Suspense, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { EmbedApp } from './ui/embed/EmbedApp';
import { sharePredictionFromLocation } from './platform/share';
import { isEmbed, parseEmbedOptions, withSharePrediction } from './ui/embed/embedOptions';
import { bootPage } from './ui/io/boot';
import type { Lab } from './store/labStore';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { joinCodeFromSearch } from './platform/roomClient';

// The pages of other addresses load on their own (a student's room, a batch story, a lesson's
// presenter view): the lab's entry carries none of them.
const StudentRoom = lazy(() =>
  import('./ui/room/StudentRoom').then((m) => ({ default: m.StudentRoom })),
);
const BatchPage = lazy(() =>
  import('./ui/batch/BatchPage').then((m) => ({ default: m.BatchPage })),
);
const LessonPage = lazy(() =>
  import('./ui/lesson/lessonPage').then((m) => ({ default: () => m.lessonPage() })),
);
import { followSystemScheme } from './platform/media';

// Composition root: the only file that wires browser globals into the UI.
followSystemScheme();
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

/**
 * The page the address asks for, and its lab if it boots one; only the lab's own pages boot (and
 * autosave) a workspace.
 */
function pageOfAddress(): { node: ReactNode; lab?: Lab } {
  const search = window.location.search;
  const q = new URLSearchParams(search);
  // `?join=CODE`: a student's page in a workshop room (src/ui/room), served by `npm run classroom`.
  const joinCode = joinCodeFromSearch(search);
  if (joinCode !== null) return { node: <StudentRoom code={joinCode} /> };
  // `?batch=<preset-id>`: a batch preset on the batch page (src/ui/batch), until the lab draws
  // batch runs.
  const batchRef = q.get('batch');
  if (batchRef !== null) return { node: <BatchPage presetRef={batchRef} /> };
  // `?lesson=`: the presenter view or its notes window (src/ui/lesson), which never touch the
  // saved workspace.
  if (q.has('lesson')) return { node: <LessonPage /> };
  // `?embed`: the compact player for iframes (src/ui/embed). Same page, same URL scheme: any share
  // link becomes an embed by adding `?embed`, and there is one file to deploy on any static host.
  const embed = isEmbed(search);
  // The first scenario: share link › ?preset= › saved workspace › default (src/ui/io/startup.ts).
  const booted = bootPage({ embed });
  if (!embed) return { node: <App lab={booted.lab} page={booted.page} />, lab: booted.lab };
  const node = (
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
  );
  return { node, lab: booted.lab };
}

/**
 * How long the first render waits for the first run (real ms). A small scenario's run (inline,
 * a few ms once its chunk is in) is ready well within it: the page then renders once, with the
 * run, instead of twice (empty, then with the run) — the first verdict comes sooner. A big one
 * (in the worker) is not waited for: the page shows its progress.
 */
const FIRST_RUN_WAIT_MS = 300;

/** Resolves when the lab's first run has settled, or after {@link FIRST_RUN_WAIT_MS}. */
function firstRunOrSoon(lab: Lab | undefined): Promise<void> {
  if (!lab) return Promise.resolve();
  return Promise.race([
    lab.actions.settled(),
    new Promise<void>((r) => setTimeout(r, FIRST_RUN_WAIT_MS)),
  ]);
}

const page = pageOfAddress();
void firstRunOrSoon(page.lab).then(() =>
  createRoot(container).render(
    <StrictMode>
      <ErrorBoundary onReload={() => window.location.reload()}>
        <Suspense fallback={null}>{page.node}</Suspense>
      </ErrorBoundary>
    </StrictMode>,
  ),
);
