import { lazyPanel } from './lazyPanel';

// What the lab's page draws only after its first screen or on a reader's act, each a chunk of
// its own (issue 24: the first load carries only what the first screen draws; docs/ARCHITECTURE.md).

/** Compare's lanes: drawn in place of the pipeline once Compare is on (a click, C, a link). */
export const ComparePanel = lazyPanel(
  () => import('./compare/ComparePanel'),
  (m) => m.ComparePanel,
);
/** The explanations and the ledger, knobs, "what this sets" and trace tabs, under the pipeline. */
export const Lower = lazyPanel(
  () => import('./panels/Lower'),
  (m) => m.Lower,
);
/** The message-sequence and topology diagrams, under the atlas. */
export const DiagramsPanel = lazyPanel(
  () => import('./diagrams/DiagramsPanel'),
  (m) => m.DiagramsPanel,
);
/** The Embed button's dialog. */
export const EmbedDialog = lazyPanel(
  () => import('./embed/EmbedDialog'),
  (m) => m.EmbedDialog,
);

/** Every panel above: their downloads start once the page is idle after its first verdict. */
export const ON_DEMAND_PANELS = [ComparePanel, Lower, DiagramsPanel, EmbedDialog] as const;
