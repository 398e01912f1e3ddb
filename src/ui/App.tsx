import { useEffect, useState } from 'react';
import { createRunClient } from '../platform/runClient';
import { createLab, FONT_SCALES, type Lab, type LabState } from '../store/labStore';
import { LabProvider, useLab } from '../store/LabContext';
import { Counters } from './Counters';
import { LibraryProvider } from './library/LibraryContext';
import { LibraryNotice } from './library/LibraryNotice';
import { Workbench } from './library/Workbench';
import { usePlaybackLoop } from './hooks/usePlaybackLoop';
import { useShortcuts } from './hooks/useShortcuts';
import { Lower } from './panels/Lower';
import { Pipeline } from './pipeline/Pipeline';
import { StatusLine } from './StatusLine';
import { testIds } from './testIds';
import { TopBar } from './TopBar';
import { Transport } from './Transport';
import './styles.css';

/**
 * The page. Creates its lab (the store, with a worker-backed run client) unless one is given —
 * tests and, later, the embedded player pass their own.
 */
export function App({ lab: given }: { lab?: Lab }) {
  const [lab] = useState(() => given ?? createLab({ runner: createRunClient() }));
  usePlaybackLoop(lab);
  useShortcuts(lab);
  useEffect(() => {
    // The dev/test API: a lazy chunk, only in dev builds or under automation (Playwright).
    if (!import.meta.env.DEV && !navigator.webdriver) return;
    let remove = () => {};
    let cancelled = false;
    void import('./testApi').then((m) => {
      if (!cancelled) remove = m.installTestApi(lab);
    });
    return () => {
      cancelled = true;
      remove();
    };
  }, [lab]);
  return (
    <LabProvider lab={lab}>
      {/* A page that makes its own lab opens the URL's ?preset= itself (src/platform/presetUrl.ts). */}
      <LibraryProvider openFromUrl={given === undefined}>
        <Shell />
      </LibraryProvider>
    </LabProvider>
  );
}

const selectFont = (s: LabState) => s.fontStep;

function Shell() {
  const step = useLab(selectFont);
  return (
    <div
      className="app"
      data-testid={testIds.app}
      style={{ ['--scale' as string]: String(FONT_SCALES[step] ?? 1) }}
    >
      <TopBar />
      <section aria-label="Playback">
        <Transport />
        <StatusLine />
      </section>
      <LibraryNotice />
      <Counters />
      <Workbench>
        <Pipeline />
        <Lower />
      </Workbench>
    </div>
  );
}
