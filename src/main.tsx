import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { EmbedApp } from './ui/embed/EmbedApp';
import { sharePredictionFromLocation } from './platform/share';
import { isEmbed, parseEmbedOptions, withSharePrediction } from './ui/embed/embedOptions';
import { bootPage } from './ui/io/boot';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { joinCodeFromSearch } from './platform/roomClient';
import { StudentRoom } from './ui/room/StudentRoom';
import { lessonPage } from './ui/lesson/lessonPage';
import { BatchLab } from './ui/batch/BatchLab';
import { findBatchPreset } from './scenarios/library/batch';
import { followSystemScheme } from './platform/media';

// Composition root: the only file that wires browser globals into the UI.
followSystemScheme();
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

/** The page the address asks for; only the lab's own pages boot (and autosave) a workspace. */
function pageOfAddress(): ReactNode {
  const search = window.location.search;
  // `?join=CODE`: a student's page in a workshop room (src/ui/room), served by `npm run classroom`.
  const joinCode = joinCodeFromSearch(search);
  if (joinCode !== null) return <StudentRoom code={joinCode} />;
  // `?batch=<preset-id>`: a batch preset on the batch page (src/ui/batch), until the lab draws
  // batch runs.
  const batchRef = new URLSearchParams(search).get('batch');
  const batchPreset = batchRef === null ? null : findBatchPreset(batchRef);
  if (batchPreset) return <BatchLab initial={batchPreset.variant.scenario} />;
  // `?lesson=`: the presenter view or its notes window (src/ui/lesson), which never touch the
  // saved workspace.
  const lesson = lessonPage();
  if (lesson) return lesson;
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
    <ErrorBoundary onReload={() => window.location.reload()}>{pageOfAddress()}</ErrorBoundary>
  </StrictMode>,
);
