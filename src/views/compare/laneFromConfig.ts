/**
 * A Compare lane from an engineer's own configuration files: the same files, formats and
 * validation as the page's Import (src/scenarios/config/importConfig.ts), set on the scenario on
 * screen — its workload, faults and pipeline — as that lane's knobs. The lane stores the knobs
 * the files set, not the files, so undo, the share link (`c=`), an embed and the Markdown report
 * replay it from the compare state alone (docs/page.md#compare).
 */
import type { ScenarioInput } from '../../engine';
import {
  importConfig,
  refusedLine,
  type ConfigFile,
  type ConfigImport,
} from '../../scenarios/config/importConfig';
import type { LaneSpec } from './compareSpec';
import { laneScenario } from './lanes';

/** What the report calls the scenario the files are set on. */
export const ON_SCREEN = 'the scenario on screen';

export type ConfigLane =
  | { ok: true; lane: LaneSpec; imported: Extract<ConfigImport, { ok: true }> }
  | { ok: false; lines: string[] };

const where = (file: string, line: number) => (line > 0 ? `${file}:${line}` : file);

/**
 * The lane `files` make beside `onScreen`, or each problem naming its file and line (a line that
 * cannot be read, a value Kafka or Flink would refuse, another processor's configuration, files
 * that set no knob of it).
 * @param from - the files' names, the lane's title.
 */
export function configLane(
  files: readonly ConfigFile[],
  onScreen: ScenarioInput,
  from: string,
): ConfigLane {
  const r = importConfig(files, { scenario: onScreen, name: ON_SCREEN });
  if (!r.ok) return { ok: false, lines: r.errors };
  if (!r.runnable)
    return {
      ok: false,
      lines: r.keys.filter((k) => k.status === 'refused').map(refusedLine),
    };
  if (r.settings.length === 0) {
    // Every key known but not modelled, or for another processor: the lane would be lane 1.
    const first = r.keys[0];
    return {
      ok: false,
      lines: [
        `${first ? where(first.file, first.line) : from}: the files set no knob of ${ON_SCREEN}: ${r.keys
          .slice(0, 3)
          .map((k) => `${k.key} — ${k.why ?? k.status}`)
          .join('; ')}`,
      ],
    };
  }
  const lane: LaneSpec = { knobs: r.settings.map((s) => ({ ...s })), from };
  // The scenario built here and the lane's own build are the same knobs on the same scenario.
  const built = laneScenario(onScreen, lane);
  if (!built.ok) return { ok: false, lines: [built.reason] };
  return { ok: true, lane, imported: r };
}
