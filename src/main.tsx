import { lazy, StrictMode, Suspense, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { EmbedApp } from './ui/embed/EmbedApp';
import { sharePredictionFromLocation } from './platform/share';
import { isEmbed, parseEmbedOptions, withSharePrediction } from './ui/embed/embedOptions';
import { bootPage } from './ui/io/boot';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { joinCodeFromSearch } from './platform/roomClient';

// The pages of other addresses load on their own (a student's room, a batch story, a lesson's
// presenter view): the lab's entry carries none of them.
const StudentRoom = lazy(() =>
  import('./ui/room/StudentRoom').then((m) => ({ default: m.StudentRoom })),
);
const LessonPage = lazy(() =>
  import('./ui/lesson/lessonPage').then((m) => ({ default: () => m.lessonPage() })),
);
import { followSystemScheme } from './platform/media';

// Composition root: the only file that wires browser globals into the UI.
followSystemScheme();
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

/** The page the address asks for; only the lab's own pages boot (and autosave) a workspace. */
function pageOfAddress(): ReactNode {
  const search = window.location.search;
  const q = new URLSearchParams(search);
  // `?join=CODE`: a student's page in a workshop room (src/ui/room), served by `npm run classroom`.
  const joinCode = joinCodeFromSearch(search);
  if (joinCode !== null) return <StudentRoom code={joinCode} />;
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
  if (q.has('lesson')) return <LessonPage />;
  // `?embed`: the compact player for iframes (src/ui/embed). Same page, same URL scheme: any share
  // link becomes an embed by adding `?embed`, and there is one file to deploy on any static host.
  const embed = isEmbed(search);
  // The first scenario: share link › ?preset= › saved workspace › default (src/ui/io/startup.ts).
  const booted = bootPage({ embed });
  if (!embed) return <App lab={booted.lab} page={booted.page} />;
  return (
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
}

createRoot(container).render(
  <StrictMode>
    <ErrorBoundary onReload={() => window.location.reload()}>
      <Suspense fallback={null}>{pageOfAddress()}</Suspense>
    </ErrorBoundary>
  </StrictMode>,
);
