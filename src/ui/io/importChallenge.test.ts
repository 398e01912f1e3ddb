/**
 * Importing a challenge file on the page (docs/challenges.md, "Open a challenge file in the
 * page"): a valid one opens as a challenge; a bad one, or one with a shipped challenge's id, is
 * refused at its line; its link (`#ch=…`) carries it whole.
 */
import { describe, expect, it } from 'vitest';
import { decodeChallengeLink, encodeChallengeLink } from '../../views/challenge/challengeLink';
import { OWN_CHALLENGE as OWN } from './challengeFile.testdata';
import { importFile, importPasted } from './importScenario';

const file = (name: string, text: string) => ({ name, size: text.length, text: async () => text });

describe('import of a challenge file', () => {
  it('gives back the challenge, with its start (the preset without its faults) as the input', async () => {
    const text = JSON.stringify(OWN, null, 2);
    const r = await importFile(file('ours.json', text));
    expect(r).toMatchObject({
      ok: true,
      name: 'Our acks=1 exercise',
      challenge: { id: 'our-acks-one' },
    });
    expect(r.ok && r.input.producer?.acks).toBe('1');
    expect(r.ok && r.input.faults).toEqual([]);
    expect(await importPasted(text)).toMatchObject({ ok: true, challenge: { id: 'our-acks-one' } });
  });

  it('refuses a bad one naming the field at its line, as a challenge (not a scenario missing its workload)', async () => {
    // Pretty-printed: "goal" opens on line 11, its "kind" on line 12.
    const bad = JSON.stringify({ ...OWN, goal: { kind: 'loose', atLeast: 1 } }, null, 2);
    const r = await importFile(file('bad.json', bad));
    expect(r).toMatchObject({
      ok: false,
      from: '“bad.json”',
      heading: 'Not imported: “bad.json” is not a valid challenge.',
    });
    expect(!r.ok && r.lines).toEqual([
      "bad.json:12: goal.kind: Invalid discriminator value. Expected 'lose' | 'duplicate' | 'exact'",
    ]);
  });

  it("refuses a shipped challenge's id, and a start naming no preset", async () => {
    const shipped = JSON.stringify({ ...OWN, id: 'acks-one-loses' }, null, 2);
    const r = await importFile(file('copy.json', shipped));
    expect(!r.ok && r.lines).toEqual([
      'copy.json:3: id: "acks-one-loses" is a shipped challenge\'s id (?challenge=acks-one-loses opens that one): give yours an id of its own',
    ]);
    const nowhere = JSON.stringify({ ...OWN, start: { preset: 'no-such/preset' } }, null, 2);
    const n = await importFile(file('n.json', nowhere));
    expect(!n.ok && n.lines[0]).toMatch(
      /^n\.json:\d+: start\.preset: no preset "no-such\/preset" in the library$/,
    );
  });
});

describe('challenge links', () => {
  it('carry a challenge whole: decoded, it is the same challenge and start', async () => {
    const r = await importFile(file('ours.json', JSON.stringify(OWN)));
    if (!r.ok || !r.challenge) throw new Error('not imported');
    const hash = `#s=x&${encodeChallengeLink(r.challenge)}`;
    expect(decodeChallengeLink(hash)).toEqual({ ok: true, challenge: r.challenge, start: r.input });
  });

  it('a hash without one gives null; a damaged one is refused, naming the link', () => {
    expect(decodeChallengeLink('#s=abc')).toBeNull();
    expect(decodeChallengeLink('#ch=9.abc')).toEqual({
      ok: false,
      issues: [
        {
          path: 'link',
          message: 'not a challenge link this Delivery Lab can read (unknown version)',
        },
      ],
    });
    const damaged = decodeChallengeLink('#ch=2.AAAA');
    expect(damaged?.ok).toBe(false);
  });
});
