// First: it starts the simulation's download before the rest of the entry evaluates.
import './platform/simulationChunk';
// Then the presets the address opens, and the whole catalog: their download starts too
// (src/ui/io/firstPresets.ts).
import './ui/io/firstPresets';
import { lazy, StrictMode, Suspense, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { bootPage, firstRunOrSoon } from './ui/io/boot';
import type { Lab } from './store/labStore';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { loadChallengePanel } from './ui/challenge/challengePanelChunk';
import { preloadWhenIdle } from './ui/lazyPanel';
import { ON_DEMAND_PANELS } from './ui/onDemandPanels';
import { joinCodeFromSearch } from './views/room/joinCode';

// The pages of other addresses load on their own (a student's room, a batch story, a lesson's
// presenter view): the lab's entry carries none of them.
const StudentRoom = lazy(() =>
  import('./ui/room/StudentRoom').then((m) => ({ default: m.StudentRoom })),
);
const LessonPage = lazy(() =>
  import('./ui/lesson/lessonPage').then((m) => ({ default: () => m.lessonPage() })),
);
import { followSystemScheme } from './platform/media';
import { provideKnobEditing } from './store/knobEditing';
import { provideMomentWords } from './store/momentWordsOnDemand';
import { editKnob } from './views/edit/knobs';
import { momentWords } from './views/run/momentWords';
import { loadValidation } from './views/run/validationOnDemand';

// Composition root: the only file that wires browser globals into the UI.
followSystemScheme();
// The knob table, which the page's Knobs panel imports anyway: setKnob synchronous
// (src/store/knobEditing.ts; the embed loads it only if a knob is set).
provideKnobEditing(editKnob);
// The validation (zod) is not on the first load (issue 24): a first visit's preset comes parsed
// (src/views/run/validationOnDemand.ts `knownParse`); a saved workspace or a share link loads it
// before boot (src/ui/io/firstPresets.ts, firstShare.ts), an edit as the store needs it, and
// it comes once the page is idle after its first verdict (below).
// A jump's words, whose describe.ts the page's status line imports anyway: said at once
// (src/store/momentWordsOnDemand.ts; the embed loads them at its first jump).
provideMomentWords(momentWords);
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

/**
 * The page the address asks for, and its lab if it boots one; only the lab's own pages boot (and
 * autosave) a workspace.
 */
function pageOfAddress(): { node: ReactNode; lab?: Lab; challenge?: boolean } {
  const search = window.location.search;
  const q = new URLSearchParams(search);
  // `?join=CODE`: a student's page in a workshop room (src/ui/room), served by `npm run classroom`.
  const joinCode = joinCodeFromSearch(search);
  if (joinCode !== null) return { node: <StudentRoom code={joinCode} /> };
  // `?batch=<preset-id>` (the batch page's old address): the lab opens batch presets itself, so
  // the address becomes `?preset=<preset-id>` before the page boots (an unknown id is refused
  // there, as any preset's).
  const batchRef = q.get('batch');
  if (batchRef !== null) {
    q.delete('batch');
    q.set('preset', batchRef);
    window.history.replaceState(null, '', `?${q.toString()}${window.location.hash}`);
  }
  // `?lesson=`: the presenter view or its notes window (src/ui/lesson), which never touch the
  // saved workspace.
  if (q.has('lesson')) return { node: <LessonPage /> };
  // (`?embed` never comes here: src/entry.ts loads the player's own page, src/embedMain.tsx.)
  // The first scenario: share link › ?preset= › saved workspace › default (src/ui/io/startup.ts).
  const booted = bootPage({ embed: false });
  return {
    node: <App lab={booted.lab} page={booted.page} firstScreenFirst />,
    lab: booted.lab,
    challenge: Boolean(booted.page.challenge),
  };
}

// The first verdict's steps, marked for `npm run bench` (bench/verdictSteps.ts): the entry's
// modules evaluated (with the presets in), the first run settled, the first render begun.
performance.mark('lab:main-evaluated');
const page = pageOfAddress();
void page.lab?.actions.settled().then(() => void performance.mark('lab:run-settled'));
// A page opened on a challenge (`?challenge=`) shows its panel on the first screen: its lazy chunk
// comes with the first run (imported here, once the page's modules are in: the boot's top-level
// awaits would wait on it otherwise).
void Promise.all([
  firstRunOrSoon(page.lab),
  page.challenge ? loadChallengePanel().catch(() => undefined) : undefined,
]).then(() => {
  performance.mark('lab:render');
  createRoot(container).render(
    <StrictMode>
      <ErrorBoundary onReload={() => window.location.reload()}>
        <Suspense fallback={null}>{page.node}</Suspense>
      </ErrorBoundary>
    </StrictMode>,
  );
  // What the first screen does not draw (Compare, the panels under the pipeline, the dialogs)
  // loads once the page is idle after its first verdict: a click then finds it in.
  // So does the validation: the readers that need it (a fault menu, the guarantee switch on an
  // edit) then answer at once.
  if (page.lab)
    preloadWhenIdle([
      ...ON_DEMAND_PANELS,
      { preload: () => void loadValidation().catch(() => undefined) },
    ]);
});
