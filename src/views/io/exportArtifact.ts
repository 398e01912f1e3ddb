/**
 * Everything the page asks of a *run* rather than of its view: the mermaid texts and the export
 * files. The page only holds a {@link RunView} (it may come from a Worker, where the engine's Run
 * stays), so these are computed where a Run is — by the artifact worker for big runs, inline for
 * small ones (src/platform/runClient.ts `createArtifactClient`) — from the scenario alone: the
 * engine is deterministic, so simulating the view's scenario again gives the very same run.
 */
import {
  parseScenario,
  simulate,
  sinkSqlScript,
  traceHash,
  type Run,
  type ScenarioInput,
} from '../../engine';
import { compareMarkdown } from '../compare/compareMarkdown';
import { atlasMarkdown } from '../atlas/atlasMarkdown';
import type { AtlasFindings } from '../atlas/atlasFindings';
import type { AtlasChoice } from '../atlas/atlasChoice';
import { compareScenario } from '../compare/compareRuns';
import type { CompareSpec } from '../compare/compareSpec';
import { canonicalJson } from '../run/compute';
import { ledgerCsv, tableCsv, traceJson } from './export';
import { markdownReport, withSections } from './markdown';
import { batchArtifact } from '../batch/batchExport';
import { diagramOf, type DiagramKind } from '../diagrams/mermaid';

/**
 * What can be asked of a run: a diagram (`sequence`, `flow`, `anomaly`, `event:<business id>`:
 * {@link diagramOf}, the one source the CLI's `--diagram` uses too) or an export
 * file (`trace-json`, `table-csv`, `ledger-csv`, `markdown`, `sink-sql`: docs/sql.md).
 */
export type ArtifactKind =
  DiagramKind | 'trace-json' | 'table-csv' | 'ledger-csv' | 'markdown' | 'sink-sql';

/** One artifact: its text and, for a capped diagram, how much of it is drawn. */
export interface Artifact {
  text: string;
  /**
   * For a diagram capped at its step limit: steps shown and steps in all, and where the shown
   * window starts (ms) when it does not start at the beginning (a run drawn from before its
   * first fault).
   */
  capped?: { shown: number; total: number; fromMs?: number };
}

/** The outcome of {@link computeArtifact}. */
export type ArtifactResult =
  | { ok: true; artifact: Artifact }
  /** `missing`: the run has no such thing (an unknown event id, no sink table). */
  | { ok: false; error: string; missing?: boolean };

/** Extra facts for the Markdown report. */
export interface ArtifactOptions {
  /** `preset/variant` the scenario came from. */
  preset?: string;
  /**
   * Compare's lanes beside the scenario (as written, `base`): the Markdown report gets its
   * Compare section (src/views/compare/compareMarkdown.ts).
   */
  compare?: { base: ScenarioInput; spec: CompareSpec };
  /**
   * The fault atlas's choice on the page: once explored, the report gets its Fault atlas section
   * (the kinds and pairs, src/views/atlas/atlasMarkdown.ts).
   */
  atlas?: AtlasChoice;
  /** What the finished atlas of that choice found, when the page holds it (src/views/atlas/atlasFindings.ts). */
  atlasFound?: AtlasFindings;
}

const CAPPED = /showing (\d+) of (\d+) steps(?:, from (\d+) ms)?/;

/** "showing N of M" (", from T ms") of a capped diagram, read back from its closing note. */
export function cappedOf(
  text: string,
): { shown: number; total: number; fromMs?: number } | undefined {
  const m = CAPPED.exec(text);
  if (!m) return undefined;
  const out = { shown: Number(m[1]), total: Number(m[2]) };
  return m[3] !== undefined ? { ...out, fromMs: Number(m[3]) } : out;
}

/**
 * One artifact of a finished run.
 * @returns the artifact, or null when the run has none of that kind (unknown event id; no sink
 *   table for `table-csv`).
 */
export function artifactOf(
  run: Run,
  kind: ArtifactKind,
  opts: ArtifactOptions = {},
): Artifact | null {
  let text: string | null;
  switch (kind) {
    case 'trace-json':
      return { text: traceJson(run) };
    case 'table-csv':
      // The sink's table, else the table at the end of the pipeline: a reader's of a topic sink.
      text = tableCsv(run, run.state.sink ? 'sink' : run.verdict.primary);
      return text === null ? null : { text };
    case 'ledger-csv':
      return { text: ledgerCsv(run) };
    case 'sink-sql': {
      if (run.scenario.sink.type !== 'table') return null;
      // The session is recorded only when asked: the same run again, with it (deterministic).
      const recorded = run.state.sink?.sql ? run : simulate(run.scenario, { sql: true });
      return { text: sinkSqlScript(recorded).text };
    }
    case 'markdown': {
      const text = markdownReport(run, {
        traceHash: traceHash(run.trace),
        ...(opts.preset ? { preset: opts.preset } : {}),
      });
      const atlas = opts.atlas
        ? atlasMarkdown(opts.atlas, false, undefined, opts.atlasFound)
        : null;
      if (!opts.compare && atlas === null) return { text };
      const compared = opts.compare ? compareScenario(opts.compare.base, opts.compare.spec) : null;
      return { text: withSections(text, compared && compareMarkdown(compared), atlas) };
    }
    default: {
      // Only diagrams are left: a new ArtifactKind without its case is a type error here.
      const diagram: DiagramKind = kind;
      text = diagramOf(run, diagram);
    }
  }
  if (text === null) return null;
  const capped = cappedOf(text);
  return capped ? { text, capped } : { text };
}

/** A one-run cache: the last scenario simulated and its run (the views ask for several artifacts of one run). */
export interface RunCache {
  key: string | null;
  run: Run | null;
}

/** An empty {@link RunCache}. */
export function runCache(): RunCache {
  return { key: null, run: null };
}

/**
 * Validate and simulate `input` (reusing the cached run of the same scenario) and derive one
 * artifact. Never throws.
 * @param input - a scenario (the view's, defaults applied, or as written).
 */
export function computeArtifact(
  input: unknown,
  kind: ArtifactKind,
  cache: RunCache = runCache(),
  opts: ArtifactOptions = {},
): ArtifactResult {
  try {
    const key = canonicalJson(input);
    let run = cache.key === key ? cache.run : null;
    if (!run) {
      const parsed = parseScenario(input);
      if (!parsed.ok)
        return {
          ok: false,
          error: `invalid scenario: ${parsed.issues
            .slice(0, 3)
            .map((i) => `${i.path || '(scenario)'}: ${i.message}`)
            .join('; ')}`,
        };
      // A batch job's artifacts come from the batch engine's run (no stream run is simulated).
      if (parsed.scenario.batch) return batchArtifact(parsed.scenario, kind, opts);
      // Drop the previous run first: two big runs' arrays should not be alive at once.
      cache.key = null;
      cache.run = null;
      run = simulate(parsed.scenario);
      cache.key = key;
      cache.run = run;
    }
    const artifact = artifactOf(run, kind, opts);
    if (!artifact)
      return {
        ok: false,
        missing: true,
        error: kind.startsWith('event:')
          ? `no business event "${kind.slice(6, 60)}" in this run`
          : kind === 'sink-sql'
            ? 'this run has no SQL table sink (its sink is not sink.type "table")'
            : kind === 'anomaly'
              ? 'this run has no anomaly: no record was lost or applied twice'
              : 'this run has no sink table (its sink is a topic or a service)',
      };
    return { ok: true, artifact };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
