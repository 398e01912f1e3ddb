import { createElement, lazy, Suspense, useState } from 'react';
import { createArtifactClient, createRunClient } from '../platform/runClient';
import { createLab, FONT_SCALES, type Lab, type LabState } from '../store/labStore';
import { LabProvider, useLab } from '../store/LabContext';
import { Counters } from './Counters';
import { createNotices } from './io/notices';
import { NoticeBar } from './io/NoticeBar';
import { PageProvider, type PageServices } from './io/PageContext';
import { ChallengeProvider, useChallengeUi } from './challenge/ChallengeContext';
import { loadChallengePanel, loadedChallengePanel } from './challenge/challengePanelChunk';
import { LibraryProvider } from './library/LibraryContext';
import { LockedPrediction } from './library/LockedPrediction';
import { SkipToQuestion } from './library/SkipToQuestion';
import { SkipLink } from './SkipLink';
import { Workbench } from './library/Workbench';
import { usePredictionGate } from './library/usePredictionGate';
import { useAfterFirstPaint } from './hooks/useAfterFirstPaint';
import { useLabDriver } from './hooks/useLabDriver';
import { useTheme } from './hooks/useTheme';
import { CondensedCardsContext } from './pipeline/condensedCards';
import { Pipeline } from './pipeline/Pipeline';
import { ComparePanel, DiagramsPanel, Lower } from './onDemandPanels';
import { StatusLine } from './StatusLine';
import { StatusTools } from './StatusTools';
import { testIds } from './testIds';
import { TopBar } from './TopBar';
import { Transport } from './Transport';
import './styles.css';

// The fault atlas is a lazy chunk: it needs the engine, which the entry script does not carry.
const AtlasPanel = lazy(() =>
  import('./atlas/AtlasPanel').then((m) => ({ default: m.AtlasPanel })),
);
// So is the challenge panel: it judges attempts with the engine on the page.
const ChallengePanel = lazy(() => loadChallengePanel().then((c) => ({ default: c })));

// A batch job (a scenario with a `batch` part) shows its scheduler and table in place of the
// stream's pipeline, and its own Compare: lazy chunks too, they run the batch engine on the page.
const BatchRun = lazy(() => import('./batch/BatchRun').then((m) => ({ default: m.BatchRun })));
const BatchCompare = lazy(() =>
  import('./batch/BatchCompare').then((m) => ({ default: m.BatchCompare })),
);

/**
 * The page. Creates its lab (the store, with a worker-backed run client) unless one is given —
 * tests and, later, the embedded player pass their own. `firstScreenFirst` (the booted page,
 * main.tsx): what lies below the first screen mounts once the first render is painted.
 */
export function App({
  lab: given,
  page: givenPage,
  firstScreenFirst = false,
}: {
  lab?: Lab;
  page?: PageServices;
  firstScreenFirst?: boolean;
}) {
  const [lab] = useState(() => given ?? createLab({ runner: createRunClient() }));
  // Booted pages (main.tsx) pass their services; a bare App (tests) gets its own, with no share link.
  const [page] = useState<PageServices>(
    () =>
      givenPage ?? { notices: createNotices(), artifacts: createArtifactClient(), shareLink: null },
  );
  useLabDriver(lab);
  return (
    <LabProvider lab={lab}>
      <PageProvider page={page}>
        <LibraryProvider linked={page.shareLink?.linked ?? null}>
          <ChallengeProvider first={page.challenge ?? null}>
            <Shell firstScreenFirst={firstScreenFirst} />
          </ChallengeProvider>
        </LibraryProvider>
      </PageProvider>
    </LabProvider>
  );
}

const selectFont = (s: LabState) => s.fontStep;
const selectComparing = (s: LabState) => s.compare !== null;
const selectPresent = (s: LabState) => s.present;
const selectDetails = (s: LabState) => s.details;
const selectBatch = (s: LabState) => s.scenario.batch !== undefined;

function Shell({ firstScreenFirst }: { firstScreenFirst: boolean }) {
  // The first frame shows the verdict without the panels under the pipeline (./hooks/useAfterFirstPaint).
  const belowFold = useAfterFirstPaint(firstScreenFirst);
  const step = useLab(selectFont);
  const comparing = useLab(selectComparing);
  const present = useLab(selectPresent);
  const challengeOpen = useChallengeUi()?.open != null;
  // The panel's chunk when it was in at the first render (a page opened on a challenge loads it
  // before): the module's own component, drawn with the first screen. Read once: the panel keeps
  // one element type for the page's life (a switch from the lazy one would remount it).
  const [loadedPanel] = useState(loadedChallengePanel);
  const details = useLab(selectDetails);
  const batch = useLab(selectBatch);
  const asking = usePredictionGate().phase === 'pending';
  const [roomLive, setRoomLive] = useState(false);
  useTheme();
  // The skip link goes to the main view on screen: Compare's lanes and a batch job have no
  // pipeline (its target was missing there, and the link did nothing).
  const skip = comparing
    ? { id: 'compare-view', text: 'Skip to Compare' }
    : batch
      ? { id: 'batch-view', text: 'Skip to the batch job' }
      : { id: 'pipeline', text: 'Skip to the pipeline' };
  return (
    <div
      className="app"
      data-testid={testIds.app}
      data-font-step={step}
      data-present={present}
      data-details={present ? details : undefined}
      // Projector mode's stage cards condensed while the details (D) are folded, as in the lesson
      // view (src/ui/present/condensedCards.css): their text at 18 px, the pipeline on one screen.
      data-condensed={(present && !details) || undefined}
      data-condensed-fit={present && !details ? 'grow' : undefined}
      // The page's own room panel is a column at the app's right: in projector mode the cards
      // condense beside it too, and its column takes the story's place once the room's answer
      // shows (src/ui/room/room.css). The lesson view's panel sits beside its view.
      data-room-live={roomLive || undefined}
      style={{ ['--scale' as string]: String(FONT_SCALES[step] ?? 1) }}
    >
      {/* The first Tab: past the top bar and the story to the pipeline (the story comes first in
          the order — its question is the first step — which put a dozen stops before it). No
          hash change: the URL's hash is the share link's. */}
      {asking && <SkipToQuestion />}
      {/* An open challenge is the task: its panel comes after the playback and the status row,
          so a keyboard reached it only past them (a keyboard user's report). */}
      {challengeOpen && (
        <SkipLink href="#challenge" target={() => document.getElementById('challenge')}>
          Skip to the challenge
        </SkipLink>
      )}
      <SkipLink href={`#${skip.id}`} target={() => document.getElementById(skip.id)}>
        {skip.text}
      </SkipLink>
      <TopBar />
      <NoticeBar />
      <section aria-label="Playback">
        {/* A batch job plays its schedule in its own panel (the stream's timeline is not its). */}
        {!batch && <Transport speedWordHidden={present && roomLive} />}
        {/* The status line shares its row with Compare, the files and the room (the top bar is full). */}
        <div className="status-row">
          <StatusLine />
          <StatusTools onLive={setRoomLive} />
        </div>
      </section>
      {/* Compare shows its lanes in place of the one run's counters and pipeline. */}
      {challengeOpen &&
        (loadedPanel ? (
          createElement(loadedPanel)
        ) : (
          <Suspense fallback={null}>
            <ChallengePanel />
          </Suspense>
        ))}
      {batch ? (
        <Suspense fallback={null}>
          {comparing ? (
            // As a stream's Compare: the story's band (its question) above the lanes while the
            // question waits — the lanes' outcome waits for it, and the box was nowhere.
            <Workbench story={asking} main={{ id: 'compare-view', label: 'Compare' }}>
              <BatchCompare />
            </Workbench>
          ) : (
            <Workbench main={{ id: 'batch-view', label: 'Batch job' }}>
              <BatchRun />
            </Workbench>
          )}
        </Suspense>
      ) : comparing ? (
        // While the question still blocks the run, Compare keeps it on screen (the story's band
        // above the lanes): the status line asks to lock one in, and the box was nowhere (issue
        // 24). The same Workbench either way, so that the lanes are not run again once answered.
        <Workbench story={asking} main={{ id: 'compare-view', label: 'Compare' }}>
          <Suspense fallback={<div className="compare-loading" aria-busy="true" />}>
            <ComparePanel />
          </Suspense>
        </Workbench>
      ) : (
        // The counters are the workbench's head: above the pipeline, under the story's band while
        // a question is asked (library.css); beside the story in projector mode otherwise.
        <Workbench head={<Counters prediction={<LockedPrediction />} />}>
          <CondensedCardsContext.Provider value={present && !details}>
            <Pipeline />
          </CondensedCardsContext.Provider>
          {belowFold && (
            <Suspense fallback={null}>
              <Lower />
            </Suspense>
          )}
        </Workbench>
      )}
      {/* The stream's atlas and diagrams read a stream run: a batch job maps its own faults
          (under its table) and has no message sequence to draw. */}
      {!batch && belowFold && (
        <>
          <Suspense fallback={null}>
            <AtlasPanel />
          </Suspense>
          <Suspense fallback={null}>
            <DiagramsPanel />
          </Suspense>
        </>
      )}
    </div>
  );
}
