/**
 * The executable's runner (`runCli`, issue 28: start-up) imports only the optional parts its
 * options need (src/cli/optionalParts.ts): none for a preset's text report (nor zod: the preset
 * comes parsed, src/scenarios/parsed/), each option its own part, zod's validation for a file;
 * and the output is the same as the in-process runner's with every part loaded.
 */
import { describe, expect, it, vi } from 'vitest';
import { findPreset } from '../scenarios';
import { encodeShare } from '../views/io/shareLink';
import { captured } from './cliTesting';
import { main } from './main';
import type { OptionalPart } from './optionalParts';

const PRESET = 'lost-ack-retry/acks-1';
const share = encodeShare(findPreset(PRESET)!.variant.scenario);

/** `runCli` in a fresh module graph (nothing imported yet): its result and the parts it imported. */
async function freshRun(argv: string[]) {
  vi.resetModules();
  const { runCli } = await import('./main');
  const { loadedOptionalParts } = await import('./optionalParts');
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    (s) => out.push(s),
    (s) => err.push(s),
  );
  return { code, out: out.join(''), err: err.join('\n'), parts: loadedOptionalParts() };
}

describe('runCli imports what the options need, and prints what main prints', () => {
  it.each<[string, string[], OptionalPart[], number]>([
    // The start-up target: a preset's text report needs none of them.
    ['a preset run', [PRESET], [], 0],
    ['--format markdown', [PRESET, '--format', 'markdown'], ['diagrams'], 0],
    // A bad level is refused by the markdown module's own rule: exit 2.
    ['--heading-level', [PRESET, '--heading-level', '9'], ['diagrams'], 2],
    // A share link is validated by its decoder; a file by zod, imported for it alone.
    ['a share link', [share], ['share'], 0],
    ['a scenario file', ['public/scenarios/lost-ack-duplicate.json'], ['validate'], 0],
    ['--compare', [PRESET, '--compare', 'exactly-once'], ['compare'], 0],
    // --depth is checked by the atlas module (exit 2 before any atlas run).
    ['--explore', [PRESET, '--explore', '--depth', '3'], ['explore', 'exploreBatch'], 2],
    // The preset's sink is a SQL table: its statements as a PostgreSQL script.
    ['--format sql', [PRESET, '--format', 'sql'], ['sql'], 0],
  ])(
    '%s',
    async (_, argv, parts, code) => {
      const r = await freshRun(argv);
      expect(r.parts).toEqual(parts);
      expect(r.code).toBe(code);
      const reference = captured(main, argv, { join: '' });
      expect({ code: r.code, out: r.out, err: r.err }).toEqual(reference);
    },
    60_000,
  );
});
