/**
 * The modules the presets are written in, each imported on its own when one of its presets is
 * asked for (src/scenarios/presetCatalog.ts): the page's first screen loads the family of the
 * preset it opens, not the library (issues #24 and #31). Which family holds which preset is
 * generated into src/scenarios/parsed/catalogParts.ts (scripts/parsedPresets.ts).
 */
import type { Preset } from './types';

/** A family's presets, in the order its module lists them. */
type FamilyLoader = () => Promise<readonly Preset[]>;

export const PRESET_FAMILIES = {
  foundation: () => import('./foundation').then((m) => m.foundationPresets),
  lostAckRetry: () =>
    import('./library/lostAckRetry').then((m) => Object.values(m.lostAckRetryPresets)),
  producer: () => import('./library/producer').then((m) => Object.values(m.producerPresets)),
  processor: () => import('./library/processor').then((m) => Object.values(m.processorPresets)),
  structuredStreaming: () =>
    import('./library/structuredStreaming').then((m) =>
      Object.values(m.structuredStreamingPresets),
    ),
  broker: () => import('./library/broker').then((m) => Object.values(m.brokerPresets)),
  consumer: () => import('./library/consumer').then((m) => Object.values(m.consumerPresets)),
  sink: () => import('./library/sink').then((m) => Object.values(m.sinkPresets)),
  sideEffect: () => import('./library/sideEffect').then((m) => Object.values(m.sideEffectPresets)),
  streamDedupe: () =>
    import('./library/streamDedupe').then((m) => Object.values(m.streamDedupePresets)),
  contentKey: () => import('./library/contentKey').then((m) => Object.values(m.contentKeyPresets)),
  batch: () => import('./library/batch').then((m) => m.batchPresets),
} satisfies Record<string, FamilyLoader>;

export type PresetFamily = keyof typeof PRESET_FAMILIES;
