/**
 * `delivery-lab from-config <files… | folder>`: real configuration files set on a library workload
 * (src/scenarios/config), run, and reported: each key and where it went, the keys not modelled,
 * the values Kafka or Flink would refuse, and the guarantee the run observed end to end.
 * Exit 0 it ran · 2 a file cannot be read or parsed (naming the line and the key), or a value is
 * refused (the scenario cannot run) · 3 the workload's fault never fired under this configuration
 * (a Flink crash placed before a checkpoint that a longer interval never reaches): the run tested
 * no failure, so no guarantee is claimed — "not tested". With `--check` (the CI step), 3 also when
 * the run or a single-fault placement breaks the claim (./fromConfigCheck.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { clipEcho, flinkFailedForGood, parseScenario, PLACEMENT_KINDS, simulate } from '../engine';
import { findPreset } from '../scenarios';
import { importConfig } from '../scenarios/config/importConfig';
import { commandArgs, isChoice } from './commandArgs';
import { exploreReport, withCommands } from './explore';
import { pipelineCheck } from './fromConfigCheck';
import { fixSentence } from '../views/atlas/fixSentence';
import { batchFromConfig } from './fromConfigBatch';
import { filesOfFolder, isFolder } from './fromConfigFolder';
import { nearPresets } from './nearPresets';
import { jobFailedLine, neverFired, type JsonReport } from './report';
import { guaranteeLine, keyGroupLines } from './fromConfigLines';
import { faultName, faultWhat } from '../views/edit/faultName';
import { realDefaultUnlike } from '../views/edit/knobs';

const USAGE =
  'usage: delivery-lab from-config <producer.properties | consumer.properties | config.yaml | spark.properties | sink.sql… | a dbt model.sql, schema.yml, dbt_project.yml, dag.py… | a folder of them> [--on PRESET[/VARIANT]] [--claim at-most-once|at-least-once|exactly-once] [--format text|json] [--scenario-out FILE] [--skip-atlas] [--check]';

/**
 * The runner's options an engineer brings here (issue 23's CI step, `from-config … --explore
 * --check`): the report holds the single-fault atlas already, and `--check` exits 3 on a break;
 * exploring further (pairs, kinds) and lanes are the runner's, on the scenario `--scenario-out`
 * writes (docs/cli.md).
 */
const RUNNER_ONLY = {
  explore:
    "from-config's report ends with a stream pipeline's single-fault atlas (its summary and first break), and from-config … --check exits 3 when the run or a placement breaks the claim (the CI step); to explore further (--depth 2, --kinds), write the scenario and run it: from-config … --scenario-out pipeline.json, then delivery-lab pipeline.json --explore --depth 2",
  compare:
    'from-config compares no lanes; write the scenario with from-config … --scenario-out pipeline.json, then delivery-lab pipeline.json --compare exactly-once',
};

/** The guarantees `--claim` takes: the scenario's `claim` (docs/format.md). */
const CLAIMS = ['at-most-once', 'at-least-once', 'exactly-once'] as const;

export function fromConfigCommand(
  argv: string[],
  out: (s: string) => void,
  err: (s: string) => void,
): number {
  const args = commandArgs(
    argv,
    {
      format: { type: 'string' },
      'scenario-out': { type: 'string' },
      'skip-atlas': { type: 'boolean' },
      check: { type: 'boolean' },
      on: { type: 'string' },
      claim: { type: 'string' },
    },
    USAGE,
    'from-config: give one or more configuration files',
    out,
    err,
    RUNNER_ONLY,
  );
  if (typeof args === 'number') return args;
  const { values, positionals } = args;
  const format = values.format ?? 'text';
  if (!isChoice('--format', format, ['text', 'json'], err)) return 2;
  const claim = values.claim;
  if (claim !== undefined && !isChoice('--claim', claim, CLAIMS, err)) return 2;
  const on = values.on;
  if (on !== undefined && !findPreset(on)) {
    err(
      `--on "${clipEcho(on)}": no library workload of that name${nearPresets(on)} (see delivery-lab --list)`,
    );
    return 2;
  }
  const files = [];
  // A folder (a dbt project, a dags/ folder, a service's config/) stands alone: its files are
  // picked as the page's Import picks them.
  const folder = positionals.find(isFolder);
  if (folder !== undefined && positionals.length > 1) {
    err(`${folder}: a folder is given on its own (its files are picked from it), or give files`);
    return 2;
  }
  if (folder !== undefined) {
    const r = filesOfFolder(folder);
    if (!r.ok) {
      for (const l of r.lines) err(l);
      return 2;
    }
    err(r.note);
    files.push(...r.files);
  }
  for (const name of folder === undefined ? positionals : []) {
    try {
      files.push({ name, text: readFileSync(name, 'utf8') });
    } catch (e) {
      err(`cannot read ${name}: ${(e as Error).message}`);
      return 2;
    }
  }
  const imported = importConfig(files, undefined, {
    ...(claim !== undefined ? { claim } : {}),
    ...(on !== undefined ? { on } : {}),
  });
  if (!imported.ok) {
    for (const e of imported.errors) err(e);
    return 2;
  }
  if (values['scenario-out'] !== undefined)
    writeFileSync(values['scenario-out'], `${JSON.stringify(imported.scenario, null, 2)}\n`);
  // The claim the verdict checks is no file's: said, with whose it is and how to choose.
  const claimWords =
    imported.claim.from === 'chosen'
      ? `claim checked: ${imported.claim.value} (--claim)`
      : `claim checked: ${imported.claim.value} — the workload's (${imported.base}), not your files': a configuration claims no guarantee; --claim ${CLAIMS.join('|')} checks the one your pipeline promises`;
  // A dbt model or an Airflow DAG: a batch job, run by the batch engine (no stream atlas).
  if (imported.kind === 'batch')
    return batchFromConfig(imported, format, claimWords, values.check === true, out, err);
  let guarantee:
    | {
        claimed: string;
        observed: string;
        held: boolean;
        tested: boolean;
        unfired: string[];
        jobFailedForGood?: JsonReport['jobFailedForGood'];
      }
    | undefined;
  const parsed = parseScenario(imported.scenario);
  // Which single fault breaks this configuration: the fault atlas of the built scenario.
  let atlas:
    | {
        summary: string;
        placements: number;
        breaking: number;
        breaks: string | null;
        keeps: string | null;
        survives: boolean;
        note?: string;
      }
    | undefined;
  if (parsed.ok) {
    const run = simulate(parsed.scenario);
    const v = run.verdict;
    // A fault that never fired tested nothing: a clean run observes exactly-once whatever the
    // configuration, so that claim would be the workload's luck, not the user's settings'.
    const unfired = neverFired(run).map((f) => {
      const spec = run.scenario.faults[f.index]!;
      return `${faultName(spec, f.index)}, ${faultWhat(spec)}, never fired: ${f.why ?? 'its condition never came'}`;
    });
    // A Flink job not restarted after the workload's crash is down at the end, whatever the
    // counts say (restart-strategy.type none: the shipped flink-conf.yaml).
    const failed = flinkFailedForGood(run);
    guarantee = {
      claimed: v.claimed,
      observed: v.observed,
      held: v.held,
      tested: unfired.length === 0,
      unfired,
      ...(failed
        ? { jobFailedForGood: { component: 'flink', atMs: failed.atMs, why: failed.why } }
        : {}),
    };
    if (!values['skip-atlas']) {
      // The fix comes with the command that explores the scenario with it: on the file
      // --scenario-out wrote, or on one to write (./exploreWithFix.ts).
      const written = values['scenario-out'];
      const { report } = exploreReport(
        parsed.scenario,
        { depth: 1, kinds: PLACEMENT_KINDS },
        undefined,
        undefined,
        { target: written ?? 'pipeline.json', scenarioOptions: [], atlasOptions: [] },
      );
      const c = report.counterexample;
      const commands = c?.fix?.commands?.map((cmd) =>
        written === undefined ? `from-config … --scenario-out pipeline.json, then ${cmd}` : cmd,
      );
      const words = c?.labels.join(' + ');
      // Timed, unless its words give the time already ("… at 108 ms (the 1st time there)").
      const when = c && !words!.includes(` at ${c.timeMs} ms`) ? ` (at ${c.timeMs} ms)` : '';
      // Losses from a crash of the producer are what the workload's application does after one
      // — nothing sent again unless its onFailure is resend (docs/semantics/producer.md#producer-crash)
      // — which no client file can say: said, with the setting that changes it.
      const losing = report.breaking.filter((b) => b.outcome === 'losses' || b.outcome === 'both');
      const crashLosses = losing.filter((b) =>
        b.faults.some((f) => {
          const x = f as { kind?: string; target?: string };
          return x.kind === 'crash' && x.target === 'producer';
        }),
      ).length;
      const onFailure = parsed.scenario.producer.app.onFailure;
      atlas = {
        summary: report.summary,
        placements: report.placements,
        breaking: report.breaking.length,
        breaks: c ? `${words}${when}: ${c.outcome}` : null,
        // What to change: the claim's recipe's knobs that keep it on that fault, and the
        // command that tries them on every other.
        keeps: c?.fix ? withCommands(fixSentence(c.fix), commands) : null,
        survives: c === null && report.base.outcome === 'held',
        ...(crashLosses > 0 && onFailure !== 'resend'
          ? {
              note: `${crashLosses === losing.length ? `the ${crashLosses}` : `${crashLosses} of the ${losing.length}`} losses come from a crash of the producer, and the workload's application sends nothing again after one (producer.app.onFailure = ${onFailure}: docs/semantics/producer.md#producer-crash); your files cannot say what your code does: if it sends again what it never saw acknowledged or committed, set producer.app.onFailure to resend in the scenario (--scenario-out) and run it again`,
            }
          : {}),
      };
    }
  }
  if (format === 'json') {
    out(
      JSON.stringify(
        {
          kind: imported.kind,
          base: imported.base,
          fitted: imported.fitted,
          keys: imported.keys,
          kept: imported.kept,
          sinkKept: imported.sinkKept,
          claim: imported.claim,
          guarantee: guarantee ?? null,
          atlas: atlas ?? null,
          scenario: imported.scenario,
        },
        null,
        2,
      ),
    );
  } else {
    out(
      `${imported.kind === 'consumer' ? 'Kafka clients' : imported.kind === 'flink' ? 'Flink job' : 'Spark query'} on the library workload ${imported.base}`,
    );
    out(claimWords);
    for (const line of keyGroupLines(imported.keys, {
      ignored: 'not modelled',
      overridden: 'overridden (a later line or file sets the same knob)',
    }))
      out(line);
    // The story's own settings where the files are silent, where they are not the real default.
    const kept = imported.kept.flatMap((k) => {
      const real = realDefaultUnlike(k.path, k.value);
      return real === null
        ? []
        : [`  ${k.key}=${String(k.value)}  → ${k.path} (real default: ${real})`];
    });
    if (kept.length > 0)
      out(
        `kept from the workload (your files leave them unset; set them there to run with yours) (${kept.length}):\n${kept.join('\n')}`,
      );
    if (imported.sinkKept) out(`sink kept from the workload: ${imported.sinkKept}`);
    if (imported.fitted) out(`workload: ${imported.fitted}`);
    // The claim is the base workload's, not the user's files' (they claim nothing): say whose.
    out(guaranteeLine(guarantee, imported, guarantee?.unfired ?? []));
    if (guarantee?.jobFailedForGood) out(jobFailedLine(guarantee.jobFailedForGood));
    // The atlas's summary opens with "The scenario breaks its <claim> claim already…" when the
    // run breaks it unaided: said above, in the workload's name.
    const summary = atlas?.summary.replace(
      /^The scenario breaks its \S+ claim already with its own faults\. /,
      '',
    );
    if (atlas)
      out(
        atlas.breaks
          ? `single-fault atlas: ${summary}\nthe first fault that breaks it: ${atlas.breaks}`
          : // The summary says it already: "… the <claim> claim survives every single fault tried."
            `single-fault atlas: ${summary}`,
      );
    if (atlas?.keeps) out(`what keeps it: ${atlas.keeps}`);
    if (atlas?.note) out(`note: ${atlas.note}`);
  }
  if (!imported.runnable) return 2;
  if (values.check) {
    // The CI step: each reason on stderr, so that the report on stdout stays as it is.
    const { failures, passed } = pipelineCheck({
      workload: imported.base,
      run: guarantee ?? null,
      atlas: atlas
        ? { placements: atlas.placements, breaking: atlas.breaking, first: atlas.breaks }
        : { none: '--skip-atlas' },
    });
    for (const f of failures) err(f);
    if (failures.length === 0) err(passed);
    return failures.length > 0 ? 3 : 0;
  }
  return guarantee?.tested === false ? 3 : 0;
}
