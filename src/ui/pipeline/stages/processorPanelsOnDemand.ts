/**
 * The Flink job's checkpoint history and the Spark query's batch list, a chunk of their own
 * (./ProcessorPanels.ts): only a Flink or Spark scenario shows them, so the embed of a consumer
 * preset never fetches them (issue 31). The stage renders them once in; the embed's measuring
 * copy waits for them before it measures (src/ui/embed/ReserveHeight.tsx), so the height it
 * reserves includes them.
 */
import { useEffect, useState } from 'react';
import type * as Panels from './ProcessorPanels';
import type { RunView } from '../../../views/run/runView';

type ProcessorPanels = typeof Panels;
type ProcessorKind = RunView['scenario']['processor']['type'];

let loaded: ProcessorPanels | null = null;
let loading: Promise<ProcessorPanels> | null = null;

/** The panels' chunk, imported once; a failed download is tried again by the next call. */
function loadProcessorPanels(): Promise<ProcessorPanels> {
  loading ??= import('./ProcessorPanels').then(
    (m) => (loaded = m),
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

/**
 * The panels for a processor of `kind` once in (loading them the first time); null while they
 * download, and for a consumer loop or no run (which shows none: nothing to wait for, see
 * {@link processorPanelsIn}).
 */
export function useProcessorPanels(kind: ProcessorKind | undefined): ProcessorPanels | null {
  const needed = kind !== undefined && kind !== 'consumer';
  const [panels, setPanels] = useState(loaded);
  useEffect(() => {
    if (!needed || panels) return;
    let live = true;
    loadProcessorPanels().then(
      (m) => live && setPanels(m),
      () => {},
    );
    return () => void (live = false);
  }, [needed, panels]);
  return needed ? panels : null;
}

/** Whether a processor of `kind` shows everything it will: a consumer loop, or its panels in. */
export function processorPanelsIn(kind: ProcessorKind | undefined, panels: ProcessorPanels | null) {
  return kind === undefined || kind === 'consumer' || panels !== null;
}
