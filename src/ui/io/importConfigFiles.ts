/**
 * The page's Import for real configuration files (Kafka client `.properties`, a Flink
 * `config.yaml` / `flink-conf.yaml`, a Spark query's options): the same importer as
 * `delivery-lab from-config` (src/scenarios/config/importConfig.ts), with a report of which keys
 * were applied and which ignored. Never throws, never touches the lab. The importer (and its YAML
 * parser) loads on first use: the page's first screen does not wait for it.
 */
import type { FaultSpec, Guarantee, ScenarioInput } from '../../engine';
import type { ConfigFile, KeptKnob, KeyReport } from '../../scenarios/config/importConfig';
import type { LaneSpec } from '../../views/compare/compareSpec';
import { faultName, faultWhat } from '../../views/edit/faultName';
import { realDefaultUnlike } from '../../views/edit/knobs';
import { SCENARIO_JSON_LIMIT } from '../../views/io/export';
import type { ReadableFile } from '../../views/io/scenarioImport';
import { formatCountOf } from '../../views/run/format';

/** What a configuration import adds to an opened scenario: the report, one line per key. */
export interface ConfigReport {
  summary: string;
  lines: string[];
  /**
   * The claim the verdict checks and whose it is, when the files opened as a scenario of their
   * own (Import): the workload's, since a configuration claims none (docs/page.md#sharing-exporting-importing).
   */
  claim?: { value: Guarantee; workload: string };
}

export type ConfigOutcome =
  | { ok: true; input: ScenarioInput; name: string; from: string; config: ConfigReport }
  | { ok: false; lines: string[]; from: string; config: true };

/** Compare's lane from configuration files: the lane, or why not (each line a file's problem). */
export type ConfigLaneOutcome =
  | { ok: true; lane: LaneSpec; from: string; config: ConfigReport }
  | { ok: false; lines: string[]; from: string };

const where = (k: KeyReport) => (k.line > 0 ? `${k.file}:${k.line}` : k.file);

function reportOf(
  keys: readonly KeyReport[],
  kept: readonly KeptKnob[],
  fileNames: string,
  /** What the keys were set on: "the library workload lost-ack-retry/…", "the scenario on screen". */
  on: string,
  fitted: string | null,
  cannotFire: readonly { fault: FaultSpec; index: number; why: string }[],
  sinkKept: string | null,
  /** What a dbt model or a DAG left unset, and what that means (importBatchConfig's notes). */
  notes: readonly string[] = [],
): ConfigReport {
  const applied = keys.filter((k) => k.status === 'applied');
  const ignored = keys.filter((k) => k.status === 'ignored' || k.status === 'unknown');
  const overridden = keys.filter((k) => k.status === 'overridden');
  // The story's own settings where the files are silent, where they are not the real default.
  const keptUnlike = kept.flatMap((k) => {
    const real = realDefaultUnlike(k.path, k.value);
    return real === null ? [] : [{ ...k, real }];
  });
  // Named in the summary too: their lines come last, often past "Show the N more lines", and a
  // run that differs from the files' own (idempotence kept off) is the first thing to know.
  const keptWords =
    keptUnlike.length > 0
      ? ` — kept from the workload unlike the real default: ${keptUnlike.map((k) => `${k.key}=${String(k.value)}`).join(', ')}`
      : '';
  return {
    summary: `From ${fileNames}: ${formatCountOf(applied.length, 'key')} applied, ${ignored.length} ignored${overridden.length > 0 ? `, ${overridden.length} overridden` : ''} (on ${on})${keptWords}`,
    lines: [
      ...applied.map((k) =>
        k.sql
          ? `${where(k)}: applied ${k.key} → ${k.path} = ${k.value}${k.why ? ` (${k.why})` : ''}`
          : // A batch setting's why says what else it set (unique_key's columns: batch.dedupeKey).
            `${where(k)}: applied ${k.key}=${k.value} → ${k.path}${k.why && k.path?.startsWith('batch.') ? ` (${k.why})` : ''}`,
      ),
      ...ignored.map((k) => `${where(k)}: ignored ${k.key} — ${k.why ?? 'not modelled'}`),
      ...overridden.map((k) => `${where(k)}: overridden ${k.key}=${k.value} — ${k.why ?? ''}`),
      ...keptUnlike.map(
        (k) =>
          `kept from the workload: ${k.key}=${String(k.value)} → ${k.path} (real default: ${k.real}; set it in your file to run with yours)`,
      ),
      ...(sinkKept ? [`sink kept from the workload: ${sinkKept}`] : []),
      ...notes,
      ...(fitted ? [`Workload: ${fitted}`] : []),
      // As `from-config` says "not tested" (docs/cli.md): a clean verdict of a fault that cannot
      // fire says nothing about the files' settings.
      ...(cannotFire.length > 0
        ? [
            `not tested: the workload’s fault can never fire under these settings, so its verdict says nothing about them — ${cannotFire
              .map((c) => `${faultName(c.fault, c.index)}, ${faultWhat(c.fault)}: ${c.why}`)
              .join('; ')}`,
          ]
        : []),
    ],
  };
}

/** Import configuration files read already (several combine, as `from-config` combines them). */
export async function importConfigTexts(files: readonly ConfigFile[]): Promise<ConfigOutcome> {
  const { importConfig, refusedLine } = await import('../../scenarios/config/importConfig');
  const names = files.map((f) => `“${(f.name.split(/[\\/]/).pop() ?? f.name).slice(0, 80)}”`);
  const from = names.join(' + ');
  const r = importConfig(files);
  if (!r.ok) return { ok: false, lines: r.errors, from, config: true };
  // A value Kafka or Flink would refuse: the scenario cannot run, so it is not opened.
  if (!r.runnable)
    return {
      ok: false,
      from,
      config: true,
      lines: r.keys.filter((k) => k.status === 'refused').map(refusedLine),
    };
  return {
    ok: true,
    input: r.scenario,
    name: r.scenario.name ?? from,
    from,
    config: {
      ...reportOf(
        r.keys,
        r.kept,
        from,
        `the library workload ${r.base}`,
        r.fitted,
        r.cannotFire,
        r.sinkKept,
        r.notes,
      ),
      claim: { value: r.claim.value, workload: r.base },
    },
  };
}

/** Read configuration files, each refused if too large (as a scenario file is) or unreadable. */
async function readConfigFiles(
  files: readonly ReadableFile[],
): Promise<ConfigFile[] | { from: string; lines: string[] }> {
  const read: ConfigFile[] = [];
  for (const [i, f] of files.entries()) {
    const name = f.name ?? `file ${i + 1}`;
    if (f.size > SCENARIO_JSON_LIMIT * 4)
      return { from: `“${name}”`, lines: [`${name}: file too large: ${f.size} bytes`] };
    try {
      read.push({ name, text: (await f.text()).replace(/^\uFEFF/, '') });
    } catch (e) {
      return { from: `“${name}”`, lines: [`${name}: cannot be read: ${String(e)}`] };
    }
  }
  return read;
}

/** Read configuration files and import them. */
export async function importConfigFiles(files: readonly ReadableFile[]): Promise<ConfigOutcome> {
  const read = await readConfigFiles(files);
  if (!Array.isArray(read)) return { ok: false, config: true, ...read };
  return importConfigTexts(read);
}

/**
 * Compare's lane from configuration files read as Import reads them, set on `onScreen` (its
 * workload and faults kept): src/views/compare/laneFromConfig.ts, loaded on first use with the
 * importer.
 */
export async function configLaneFiles(
  files: readonly ReadableFile[],
  onScreen: ScenarioInput,
): Promise<ConfigLaneOutcome> {
  const read = await readConfigFiles(files);
  if (!Array.isArray(read)) return { ok: false, ...read };
  const { configLane, ON_SCREEN } = await import('../../views/compare/laneFromConfig');
  const bare = read.map((f) => (f.name.split(/[\\/]/).pop() ?? f.name).slice(0, 80));
  const from = bare.map((n) => `“${n}”`).join(' + ');
  // A link carries at most 200 characters of it (src/views/compare/compareSpec.ts).
  const joined = bare.join(' + ');
  const title = joined.length <= 200 ? joined : `${bare[0]} + ${bare.length - 1} more files`;
  const r = configLane(read, onScreen, title);
  if (!r.ok) return { ok: false, lines: r.lines, from };
  const i = r.imported;
  return {
    ok: true,
    lane: r.lane,
    from,
    config: reportOf(i.keys, i.kept, from, ON_SCREEN, null, i.cannotFire, null),
  };
}
