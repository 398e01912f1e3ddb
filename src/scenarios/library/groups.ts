/**
 * The library panel's data that is not per preset: the groups in display order with their
 * headings, and a search over the presets. Pure functions of the registry, so the panel only
 * renders what these return.
 */
import type { Preset, PresetGroup } from '../types';
import { sourceTitle } from './sources';

/** One heading of the library: where in the pipeline the failure happens. */
export interface LibraryGroup {
  id: PresetGroup;
  label: string;
  /** One line under the heading. */
  blurb: string;
}

/** Every group, in the order the pipeline runs (the guarantee presets first). */
export const LIBRARY_GROUPS: readonly LibraryGroup[] = [
  {
    id: 'guarantees',
    label: 'Guarantees',
    blurb: 'The same pipeline and faults under at-most-once, at-least-once and effectively-once.',
  },
  {
    id: 'producer',
    label: 'Producer',
    blurb: 'Retries, lost acknowledgements and re-sends between the application and Kafka.',
  },
  {
    id: 'broker',
    label: 'Broker',
    blurb: 'What the log holds and what each reader is allowed to see of it.',
  },
  {
    id: 'consumer',
    label: 'Consumer',
    blurb: 'When offsets are committed relative to the work, and who owns a partition.',
  },
  {
    id: 'processor',
    label: 'Stream processor',
    blurb: 'Flink checkpoints and Spark micro-batches replaying after a crash.',
  },
  {
    id: 'sink',
    label: 'Sink',
    blurb: 'Which writes collapse a replay, and which keys and statements cannot.',
  },
  {
    id: 'side effect',
    label: 'Side effect',
    blurb: 'Card charges and emails: calls outside every engine’s exactly-once boundary.',
  },
  {
    id: 'batch',
    label: 'Batch jobs',
    blurb: 'Scheduled runs, retries, re-runs and backfills over partitions, and dedupe stores.',
  },
];

/** Presets grouped for the panel, groups in {@link LIBRARY_GROUPS} order, empty groups left out. */
export function groupPresets<P extends Pick<Preset, 'group'>>(
  presets: readonly P[],
): { group: LibraryGroup; presets: P[] }[] {
  return LIBRARY_GROUPS.map((group) => ({
    group,
    presets: presets.filter((p) => p.group === group.id),
  })).filter((g) => g.presets.length > 0);
}

/** The text a preset is found by: ids, title, card line, story, fix, group, variants, sources. */
function haystack(p: Preset): string {
  return [
    p.id,
    p.title,
    p.oneLine,
    p.story,
    p.fix,
    p.group,
    p.illustrates,
    ...p.variants.flatMap((v) => [v.id, v.label, v.summary]),
    ...p.sources.map((u) => sourceTitle(u) ?? u),
  ]
    .join('\n')
    .toLowerCase();
}

/**
 * The presets matching a search box: every whitespace-separated word must occur (case-insensitive)
 * somewhere in the preset's text. An empty query matches everything. Order is kept.
 */
export function searchPresets(presets: readonly Preset[], query: string): Preset[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...presets];
  return presets.filter((p) => {
    const h = haystack(p);
    return words.every((w) => h.includes(w));
  });
}

/** `query` with each abbreviation a reader may type spelled out as the presets write it ("EOS"). */
export function spelledOut(query: string): string {
  return query.replace(/\S+/g, (w) => ABBREVIATIONS[w.toLowerCase()] ?? w);
}

/**
 * The field's abbreviations a reader types for what the presets spell out: Kafka's "EOS"
 * (exactly-once semantics: `processing.guarantee=exactly_once_v2` is "EOS version 2",
 * https://kafka.apache.org/documentation/streams/developer-guide/config-streams#processing-guarantee)
 * and its like for the other two guarantees.
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  eos: 'exactly-once',
  alos: 'at-least-once',
  amos: 'at-most-once',
};
