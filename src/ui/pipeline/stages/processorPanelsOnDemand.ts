/**
 * The Flink job's checkpoint history (./FlinkPanel.tsx) and the Spark query's batch list
 * (./BatchList.tsx), each a chunk of its own: only a Flink or Spark scenario shows one, so the
 * embed of a consumer preset fetches neither, a Flink job's no Spark panel and a Spark query's no
 * Flink panel (issue 31). The stage renders its panel once in; the embed's height measure waits
 * for it before it measures (src/ui/embed/ReserveHeight.tsx), so the height it reserves includes it.
 */
import { useEffect, useState } from 'react';
import type { BatchList } from './BatchList';
import type { FlinkPanel } from './FlinkPanel';
import type { RunView } from '../../../views/run/runView';

/** The panel of the processor at hand, once in: Flink's or Spark's. */
interface ProcessorPanels {
  FlinkPanel?: typeof FlinkPanel;
  BatchList?: typeof BatchList;
}
type ProcessorKind = RunView['scenario']['processor']['type'];
type PanelKind = Exclude<ProcessorKind, 'consumer'>;

const importers: Record<PanelKind, () => Promise<ProcessorPanels>> = {
  flink: () => import('./FlinkPanel').then((m) => ({ FlinkPanel: m.FlinkPanel })),
  spark: () => import('./BatchList').then((m) => ({ BatchList: m.BatchList })),
};
const loaded: Partial<Record<PanelKind, ProcessorPanels>> = {};
const loading: Partial<Record<PanelKind, Promise<ProcessorPanels>>> = {};

/** A kind's panel chunk, imported once; a failed download is tried again by the next call. */
function loadProcessorPanels(kind: PanelKind): Promise<ProcessorPanels> {
  return (loading[kind] ??= importers[kind]().then(
    (m) => (loaded[kind] = m),
    (e: unknown) => {
      delete loading[kind];
      throw e;
    },
  ));
}

/**
 * The panel for a processor of `kind` once in (loading it the first time); null while it
 * downloads, and for a consumer loop or no run (which shows none: nothing to wait for, see
 * {@link processorPanelsIn}).
 */
export function useProcessorPanels(kind: ProcessorKind | undefined): ProcessorPanels | null {
  const panelKind = kind === undefined || kind === 'consumer' ? null : kind;
  // Bumped when a chunk comes in: the panels themselves are read from `loaded`.
  const [, setArrived] = useState(0);
  const panels = panelKind === null ? null : (loaded[panelKind] ?? null);
  useEffect(() => {
    if (panelKind === null || panels) return;
    let live = true;
    loadProcessorPanels(panelKind).then(
      () => live && setArrived((n) => n + 1),
      () => {},
    );
    return () => void (live = false);
  }, [panelKind, panels]);
  return panels;
}

/** Whether a processor of `kind` shows everything it will: a consumer loop, or its panel in. */
export function processorPanelsIn(kind: ProcessorKind | undefined, panels: ProcessorPanels | null) {
  return kind === undefined || kind === 'consumer' || panels !== null;
}
