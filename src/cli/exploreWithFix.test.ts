/**
 * `--explore`'s `fix:` line ends with the command that explores the scenario with the knob that
 * keeps the claim on its counterexample, and `--set` is how that command sets it: run as printed,
 * it gives the atlas with the knob.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario, type Scenario } from '../engine';
import { findPreset } from '../scenarios';
import { importConfig } from '../scenarios/config/importConfig';
import { captured } from './cliTesting';
import { fixCommands, shellWord } from './exploreWithFix';
import { main } from './main';

const cli = (argv: string[]) => captured(main, argv, { join: '' });

/** A printed command's words as a POSIX shell splits them (bare words and '…' quoting). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const m of command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g))
    words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}

/**
 * The engineer's pipeline of the page's atlas test (e2e/atlas.spec.ts): acks=1, idempotence off,
 * auto-commit, and a sink keyed by the payment id, on the lost-ack workload — written to a file.
 */
function engineersPipeline(): string {
  const r = importConfig([
    { name: 'producer.properties', text: 'acks=1\nretries=2147483647\nenable.idempotence=false\n' },
    {
      name: 'consumer.properties',
      text: 'enable.auto.commit=true\nisolation.level=read_uncommitted\n',
    },
    {
      name: 'sink.sql',
      text: 'INSERT INTO payments (payment_id, amount) VALUES ($1, $2) ON CONFLICT (payment_id) DO NOTHING',
    },
  ]);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  const file = join(mkdtempSync(join(tmpdir(), 'explore-fix-')), 'my pipeline.json');
  writeFileSync(file, JSON.stringify(r.scenario));
  return file;
}

describe("--explore's fix: line and the command that explores with it", () => {
  it('run as printed, the command explores the pipeline with acks=all: every placement holds', () => {
    // With acks=1 a leader that fails right after appending e1 loses it (its followers never
    // copied it, https://kafka.apache.org/documentation/#producerconfigs_acks); acks=all alone
    // keeps the exactly-once claim on that fault (src/views/atlas/fixSuggestion.test.ts).
    const file = engineersPipeline();
    const first = cli([file, '--explore']);
    expect(first.code).toBe(0);
    expect(first.out).toContain('9 lose');
    const fix = first.out.split('\n').find((l) => l.startsWith('fix: '));
    // The file's name has a space: quoted for the shell.
    expect(fix).toBe(
      `fix: On this fault, acks=all alone keeps the exactly-once claim (a knob of its recipe) — a finding on this fault only: run the atlas with it to try the others: delivery-lab '${file}' --set acks=all --explore`,
    );
    const words = shellWords(fix!.slice(fix!.indexOf('delivery-lab')));
    expect(words.slice(0, 2)).toEqual(['delivery-lab', file]);
    const second = cli(words.slice(1));
    expect(second.err).toBe('');
    expect(second.code).toBe(0);
    // Its scenario is the file's with the knob set, named so; every placement held.
    const head = second.out.split('\n')[0]!;
    expect(head).toMatch(/, with acks=all — fault atlas, depth 1$/);
    const summary =
      /^(\d[\d,]*) placements: (\d[\d,]*) held — the exactly-once claim survives every single fault tried\.$/m.exec(
        second.out,
      );
    expect(summary).not.toBeNull();
    expect(summary![1]).toBe(summary![2]);
    expect(second.out).not.toContain('Minimal counterexample');
  }, 120_000);

  it('--format json gives the same commands under counterexample.fix.commands', () => {
    const file = engineersPipeline();
    const r = cli([
      file,
      '--explore',
      '--kinds',
      'leader-failover',
      '--format',
      'json',
      '--seed',
      '7',
    ]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as {
      counterexample: { fix: { kind: string; commands: string[] } };
    };
    expect(json.counterexample.fix.kind).toBe('alone');
    // The options that made this atlas come with it: the seed before the knob, the kinds after.
    expect(json.counterexample.fix.commands).toEqual([
      `delivery-lab '${file}' --seed 7 --set acks=all --explore --kinds leader-failover`,
    ]);
  }, 120_000);

  it('a scenario on its recipe has no fix, so no command', () => {
    // at-most-once's counterexample is a re-send its recipe allows (fixSuggestion.test.ts).
    const r = cli(['at-most-once', '--explore', '--kinds', 'app-resend']);
    expect(r.out).not.toContain('fix:');
  }, 60_000);
});

describe('the commands, knob by knob', () => {
  const s = (): Scenario => {
    const p = parseScenario(findPreset('lost-ack-retry/acks-1')!.variant.scenario);
    if (!p.ok) throw new Error('not valid');
    return p.scenario;
  };
  const asked = { target: 'lost-ack-retry/acks-1', scenarioOptions: [], atlasOptions: [] };
  const acks = { path: 'producer.acks', value: 'all', text: 'acks=all' };
  const idem = {
    path: 'producer.enable.idempotence',
    value: true,
    text: 'enable.idempotence=true',
  };

  it('one command per knob that keeps it alone; one with all when only together; none when not even then', () => {
    const claim = 'exactly-once' as const;
    expect(fixCommands(s(), { kind: 'alone', claim, knobs: [acks, idem] }, asked)).toEqual([
      'delivery-lab lost-ack-retry/acks-1 --set acks=all --explore',
      'delivery-lab lost-ack-retry/acks-1 --set enable.idempotence=true --explore',
    ]);
    expect(fixCommands(s(), { kind: 'together', claim, knobs: [acks, idem] }, asked)).toEqual([
      'delivery-lab lost-ack-retry/acks-1 --set acks=all --set enable.idempotence=true --explore',
    ]);
    expect(fixCommands(s(), { kind: 'none', claim, knobs: [acks, idem] }, asked)).toEqual([]);
  });

  it('quotes what a shell would split or expand', () => {
    expect(shellWord('pipeline.json')).toBe('pipeline.json');
    expect(shellWord('http://localhost:5173/#s=2.abc&x=1')).toBe(
      "'http://localhost:5173/#s=2.abc&x=1'",
    );
    expect(shellWord("it's.json")).toBe("'it'\\''s.json'");
  });
});

describe('--set', () => {
  it('runs the scenario with the knob set, under its own name, no preset and no pin to accept', () => {
    // lost-ack-retry/acks-1 lands e3 twice (its lost ack's retry, idempotence off); acks=all
    // with idempotence on dedupes the retry.
    const r = cli([
      'lost-ack-retry/acks-1',
      '--set',
      'acks=all',
      '--set',
      'enable.idempotence=true',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as {
      scenario: string;
      preset?: string;
      totals: { duplicates: number };
    };
    expect(json.preset).toBeUndefined();
    expect(json.scenario).toMatch(/, with acks=all enable\.idempotence=true$/);
    expect(json.totals.duplicates).toBe(0);
  }, 60_000);

  it('a configuration Kafka refuses, an unknown knob, a guarantee, or knobs split by the shell: exit 2 naming --set', () => {
    const refused = cli(['lost-ack-retry/acks-1', '--set', 'enable.idempotence=true']);
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(
      '--set enable.idempotence=true: the configuration is refused: producer.acks: ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
    );
    const unknown = cli(['lost-ack-retry/acks-1', '--set', 'akcs=all']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^--set: no knob "akcs"; did you mean producer\.acks \(acks\)\?/);
    const guarantee = cli(['lost-ack-retry/acks-1', '--set', 'exactly-once']);
    expect(guarantee.code).toBe(2);
    expect(guarantee.err).toContain('--compare exactly-once runs it beside the scenario');
    const split = cli(['lost-ack-retry/acks-1', '--set', 'acks=all', 'enable.idempotence=true']);
    expect(split.code).toBe(2);
    expect(split.err).toContain('one --set per knob: --set acks=all --set enable.idempotence=true');
  });
});
