/**
 * The lesson format: a valid file parses; a bad one is refused naming the field; older versions
 * migrate forward through the table, and a file from the future is refused.
 */
import { describe, expect, it } from 'vitest';
import { parseLesson, parseLessonJson } from './parse';
import { resolveStep } from './resolve';
import { shippedChallenges } from '../challenges/shipped';
import { decodeChallengeLink } from '../../views/challenge/challengeLink';

const valid = () => ({
  version: 1,
  id: 'tiny',
  title: 'A tiny lesson',
  steps: [
    { title: 'A lost ack', preset: 'lost-ack-retry', note: 'Ask who has seen this.' },
    {
      title: 'Inline',
      scenario: {
        version: 1,
        name: 'two events',
        workload: {
          events: [
            { id: 'e1', amount: 10, at: 0 },
            { id: 'e2', amount: 20, at: 5 },
          ],
        },
      },
      question: {
        question: 'How many rows does the sink end with?',
        answer: '2: nothing breaks.',
        mark: { kind: 'numbers', values: [{ value: 2, what: 'rows', units: ['rows'] }] },
      },
      pace: 0.05,
      thenFlipTo: { guarantee: 'exactly-once' },
      challenge: 'acks-one-loses',
    },
  ],
});

describe('parseLesson', () => {
  it('accepts a valid lesson, defaults applied', () => {
    const r = parseLesson(valid());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.lesson.steps).toHaveLength(2);
    expect(r.lesson.steps[1]!.question!.needs).toEqual([]);
    // The preset's own question, on the variant it is about; the inline one's pace applied.
    const first = resolveStep(r.lesson, 0);
    expect(first.presetRef).toBe('lost-ack-retry/idempotence-off');
    expect(first.question.mark?.kind).toBe('numbers');
    const second = resolveStep(r.lesson, 1);
    expect(second.scenario.display?.pace).toBe(0.05);
    expect(second.compare).toEqual({ lanes: [{ guarantee: 'exactly-once' }] });
    expect(second.challenge?.challenge.id).toBe('acks-one-loses');
    expect(second.challenge?.carried).toBeNull();
  });

  it('asks the question any run can be asked on a variant its preset’s question is not about', () => {
    const l = { ...valid(), steps: [{ title: 'On', preset: 'lost-ack-retry/idempotence-on' }] };
    const r = parseLesson(l);
    expect(r.ok && resolveStep(r.lesson, 0).question.choices).toBe(true);
  });

  it.each([
    ['steps.0.preset', { title: 'x', preset: 'no-such-preset' }, 'no preset "no-such-preset"'],
    ['steps.0.preset', { title: 'x', preset: 'lost-ack-retry/nope' }, 'no preset'],
    ['steps.0.preset', { title: 'x' }, 'give exactly one of `preset`'],
    ['steps.0.pace', { title: 'x', preset: 'lost-ack-retry', pace: 0 }, 'at least 0.001'],
    ['steps.0.panels.0', { title: 'x', preset: 'lost-ack-retry', panels: ['wall'] }, ''],
    [
      'steps.0.challenge',
      { title: 'x', preset: 'lost-ack-retry', challenge: '' },
      'must not be empty',
    ],
    // docs/workshops.md's example named "duplicate-with-idempotence" (the shipped id ends in -on):
    // accepted before, and the room was told to open a challenge that does not exist.
    [
      'steps.0.challenge',
      { title: 'x', preset: 'lost-ack-retry', challenge: 'duplicate-with-idempotence' },
      'no challenge "duplicate-with-idempotence" in the lab; known: acks-one-loses, duplicate-with-idempotence-on, acks-zero-loses, commit-before-crash-point, fix-at-least-once, flink-crash-writes-twice, flink-fix-sink, spark-exactly-once-duplicate, spark-fix-append, sink-generated-ids, commit-first-exactly-once',
    ],
    ['steps.0.speed', { title: 'x', preset: 'lost-ack-retry', speed: 2 }, 'unknown key "speed"'],
    // The field meant, for a key a misspelling away from one of the step's own.
    [
      'steps.0.questoin',
      { title: 'x', preset: 'lost-ack-retry', questoin: {} },
      'unknown key "questoin": not a field here (misspelt, or a field of another kind); did you mean "question"?',
    ],
    [
      'steps.0.scenario.producer.acks',
      {
        title: 'x',
        scenario: {
          version: 1,
          name: 'n',
          workload: { events: [{ id: 'e1', amount: 10, at: 0 }] },
          producer: { acks: 'two' },
        },
      },
      '',
    ],
    [
      'steps.0.question.mark.options',
      {
        title: 'x',
        preset: 'lost-ack-retry',
        question: {
          question: 'q',
          answer: 'a',
          mark: {
            kind: 'choice',
            options: [
              { id: 'a', text: 'A' },
              { id: 'b', text: 'B' },
              { id: 'c', text: 'C' },
            ],
          },
        },
      },
      'exactly one option is right',
    ],
    [
      'steps.0.thenFlipTo',
      {
        title: 'x',
        preset: 'lost-ack-retry',
        thenFlipTo: { knob: 'producer.no.such.knob', value: 1 },
      },
      '',
    ],
    [
      // Two options with one id: the room's answers are recorded by id (the CSV's `answer`), so
      // a student choosing "7 rows" would be counted as choosing "10 rows", and marked right.
      'steps.0.question.mark.options.2.id',
      {
        title: 'x',
        preset: 'lost-ack-retry',
        question: {
          question: 'q',
          answer: 'a',
          mark: {
            kind: 'choice',
            options: [
              { id: 'ten', text: '10 rows', right: true },
              { id: 'twelve', text: '12 rows' },
              { id: 'ten', text: '7 rows' },
            ],
          },
        },
      },
      '"ten" is option 1’s id too: each option needs an id of its own',
    ],
    // A title of spaces only: an empty heading on the projector.
    ['steps.0.title', { title: '   ', preset: 'lost-ack-retry' }, 'must not be blank'],
    [
      'steps.0.question.question',
      {
        title: 'x',
        preset: 'lost-ack-retry',
        question: {
          question: ' \n ',
          answer: 'a',
          mark: { kind: 'numbers', values: [{ value: 11, what: 'rows' }] },
        },
      },
      'must not be blank',
    ],
  ])('refuses a bad step naming %s', (path, step, words) => {
    const l = { ...valid(), steps: [step] };
    const r = parseLesson(l);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const issue = r.issues.find((i) => i.path === path);
    expect(issue, JSON.stringify(r.issues)).toBeDefined();
    expect(issue!.message).toContain(words);
  });

  it('a bad id does not hide the steps’ problems: all at once, each naming its field', () => {
    const r = parseLesson({
      ...valid(),
      id: 'Bad Id',
      steps: [
        { title: 'ok', preset: 'at-most-once' },
        { title: 'bad preset', preset: 'lost-ack' },
        {
          title: 'bad flip',
          preset: 'at-least-once',
          thenFlipTo: { knob: 'producer.nonsense', value: 3 },
        },
        // Refused by the schema itself: its preset and its challenge, named, are checked too
        // (a teacher fixed the pace, and only then learnt the preset was misspelt).
        { title: 'bad pace', preset: 'no-such', pace: -1, challenge: 'no-such-challenge' },
        // Its challenge refused by the schema (not a string): reported once, by the schema.
        { title: 'bad challenge', preset: 'at-most-once', challenge: 3 },
      ],
    });
    expect(!r.ok && r.issues.map((i) => i.path)).toEqual([
      'id',
      'steps.3.pace',
      'steps.4.challenge',
      'steps.1.preset',
      'steps.2.thenFlipTo',
      'steps.3.preset',
      'steps.3.challenge',
    ]);
  });

  it('refuses a question whose needs are not in the setup the room reads, naming the fact', () => {
    const question = {
      question: 'How many rows does the payments table end with?',
      answer: '18: two payments lost.',
      mark: { kind: 'numbers', values: [{ value: 18, what: 'rows' }] },
    };
    // at-most-once's own setup says acks=0 and 20 payments (src/scenarios/library).
    const step = (needs: string[], setup?: string) => ({
      title: 'Commit first',
      preset: 'at-most-once',
      ...(setup === undefined ? {} : { setup }),
      question: { ...question, needs },
    });
    expect(parseLesson({ ...valid(), steps: [step(['acks=0', '20 payments'])] }).ok).toBe(true);
    expect(parseLesson({ ...valid(), steps: [step(['acks=1', '20 payments'])] })).toEqual({
      ok: false,
      issues: [
        {
          path: 'steps.0.question.needs.0',
          message:
            '"acks=1" is not written in the preset’s setup, which the room reads before answering: write it there as the answer needs it',
        },
      ],
    });
    const own = parseLesson({ ...valid(), steps: [step(['acks=0'], 'Twenty payments.')] });
    expect(!own.ok && own.issues.map((i) => i.path + ': ' + i.message.split(',')[0])).toEqual([
      'steps.0.question.needs.0: "acks=0" is not written in steps.0.setup',
    ]);
  });

  it('refuses a setup that gives away its own question’s answer, naming the setup', () => {
    // The author's hand edit: the outcome added to the setup the room reads before answering.
    const step = (setup: string, mark: object, answer = '7: e1..e7.') => ({
      ...valid(),
      steps: [
        {
          title: 'Five at a time',
          preset: 'commit-before-process',
          setup,
          question: { question: 'How many rows does the table end with?', answer, mark },
        },
      ],
    });
    const rows = { kind: 'numbers', values: [{ value: 7, what: 'rows', units: ['rows'] }] };
    const refused = (l: unknown) => {
      const r = parseLesson(l);
      return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
    };
    const setup = 'It reads e1..e10 five records at a time and crashes in its second batch.';
    expect(refused(step(setup, rows))).toEqual([]);
    expect(refused(step(`${setup} The table ends with 7 rows.`, rows))).toEqual([
      'steps.0.setup: the setup says "7 rows", the answer to its own question: the room reads the setup before answering — leave the outcome to the reveal (the question\'s `answer`)',
    ]);
    // A sum asked with its prefix: "$280" is the answer whatever follows it.
    const sum = { kind: 'numbers', values: [{ value: 280, what: 'the sum', prefix: '$' }] };
    expect(refused(step(`${setup} The report shows $280.`, sum))[0]).toContain(
      'the setup says "$280"',
    );
    // "10 records" is not "10 rows"; a number inside another ("17 rows") is not 7.
    expect(refused(step(`${setup} 17 rows of another table.`, rows))).toEqual([]);
    const choice = {
      kind: 'choice',
      options: [
        { id: 'exact', text: '10 rows, each event once' },
        { id: 'dup', text: '12 rows: two events twice', right: true },
        { id: 'lost', text: '7 rows: three events lost' },
      ],
    };
    expect(
      refused(step(`${setup} It ends with 12 rows: two events twice.`, choice, 'Twelve.'))[0],
    ).toContain('the setup says "12 rows: two events twice" (the right option)');
    expect(refused(step(`${setup} Twelve.`, choice, 'Twelve.'))[0]).toContain(
      'the setup says "Twelve."',
    );
  });

  it('refuses Markdown in a title, which the projector shows as written; identifiers stay', () => {
    const titled = (lesson: string, step: string) =>
      parseLesson({
        ...valid(),
        title: lesson,
        steps: [{ title: step, preset: 'lost-ack-retry' }],
      });
    const r = titled(
      'A consumer that **commits** before it writes',
      '`commitSync()` first, then _process_',
    );
    expect(r.ok ? [] : r.issues).toEqual([
      {
        path: 'title',
        message:
          'Markdown is not rendered in a title: "**commits**" would show its marks as written on the projector — write it as plain text',
      },
      {
        path: 'steps.0.title',
        message:
          'Markdown is not rendered in a title: "`commitSync()`" would show its marks as written on the projector — write it as plain text',
      },
    ]);
    expect(titled('Links', '[Kafka](https://kafka.apache.org) semantics').ok).toBe(false);
    expect(titled('# Day 1', 'x').ok).toBe(false);
    // A knob's name, an isolation level, a product's star: plain text.
    expect(
      titled('read_committed vs read_uncommitted', 'acks=all * 3 replicas, __consumer_offsets').ok,
    ).toBe(true);
    expect(titled('transactional.id and max.in.flight', 'Kafka 2.5+').ok).toBe(true);
  });

  it('says a scenario or a challenge file is not a lesson, in one sentence', () => {
    // The presenter's Open… on the scenario the page exported: ten "unknown key" lines before.
    const scenario = parseLesson({ version: 1, name: 'x', workload: { events: [] } });
    expect(scenario.ok ? [] : scenario.issues).toEqual([
      {
        path: '',
        message:
          'a scenario file, not a lesson (it has no `steps`): put it in a step as `"scenario": {…}`, or open it with the page’s Import',
      },
    ]);
    const challenge = parseLesson({
      version: 1,
      id: 'c',
      start: { preset: 'x' },
      goal: { kind: 'exact' },
    });
    expect(challenge.ok ? '' : challenge.issues[0]!.message).toMatch(
      /^a challenge file, not a lesson/,
    );
  });

  it('opens a lesson whose needs quote an earlier wording of its preset’s setup', () => {
    // A teacher's lesson quoted effectively-once's setup as it read before its key column was
    // named as the sink's card names it, (payment_id) → (id): after the rewording, Open… refused
    // last week's lesson ("…is not written in the preset’s setup").
    const lesson = (needs: string[]) => ({
      ...valid(),
      steps: [
        {
          title: 'Exactly-once: the same fault, absorbed',
          preset: 'effectively-once',
          question: {
            question: 'Same lost ack, same crash. How many rows?',
            answer: '20.',
            mark: { kind: 'numbers', values: [{ value: 20, what: 'rows' }] },
            needs,
          },
        },
      ],
    });
    expect(parseLesson(lesson(['ON CONFLICT (payment_id) DO UPDATE'])).ok).toBe(true);
    expect(parseLesson(lesson(['ON CONFLICT (id) DO UPDATE'])).ok).toBe(true);
    // A fact in neither wording is refused as ever.
    expect(parseLesson(lesson(['ON CONFLICT (uuid) DO UPDATE'])).ok).toBe(false);
  });

  it('refuses a bad id, no steps, and text that is not JSON, naming where', () => {
    const r = parseLesson({ ...valid(), id: 'Has Spaces', steps: [] });
    expect(!r.ok && r.issues.map((i) => i.path).sort()).toEqual(['id', 'steps']);
    const t = parseLessonJson('{"version": 1,');
    expect(!t.ok && t.issues[0]!.path).toBe('');
    expect(!t.ok && t.issues[0]!.message).toMatch(/^not valid JSON/);
    expect(parseLessonJson('').ok).toBe(false);
  });
});

describe('lesson migrations', () => {
  it('migrates a version 1 file forward through the table (here a test step to version 2)', () => {
    // A made-up step 1 → 2 that renames `name` to `title`, run against a v2 "current" version:
    // the table is applied, then the version is checked by the schema — which is version 1, so
    // the migrated file is refused on `version` exactly (the table ran, the field is named).
    const v1 = { ...valid(), name: 'A tiny lesson', title: undefined };
    const r = parseLesson(v1, { 1: ({ name, ...rest }) => ({ ...rest, title: name }) }, 2);
    expect(!r.ok && r.issues.map((i) => i.path)).toEqual(['version']);
  });

  it('refuses a version from the future and a missing one', () => {
    const future = parseLesson({ ...valid(), version: 2 });
    expect(!future.ok && future.issues[0]).toEqual({
      path: 'version',
      message: 'version 2 is newer than this Delivery Lab (1); update the app',
    });
    const { version: _v, ...none } = valid();
    const missing = parseLesson(none);
    expect(!missing.ok && missing.issues[0]!.path).toBe('version');
    expect(parseLesson([]).ok).toBe(false);
  });
});

describe('a lesson’s own challenge, inline (docs/workshops.md, `steps[].challenge`)', () => {
  // A shipped challenge, copied as a teacher would start theirs, under an id of its own.
  const own = () => ({
    ...structuredClone(shippedChallenges.find((c) => c.id === 'commit-before-crash-point')!),
    id: 'our-crash-point',
    title: 'Our crash point',
  });
  const lesson = (challenge: unknown) => ({
    version: 1,
    id: 'own-challenge',
    title: 'Our own challenge',
    steps: [{ title: 'Commit first', preset: 'commit-before-process', challenge }],
  });

  it('is accepted, and travels whole in the address the students open', () => {
    const r = parseLesson(lesson(own()));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const step = resolveStep(r.lesson, 0).challenge!;
    expect(step.challenge.id).toBe('our-crash-point');
    expect(step.carried).toMatch(/^ch=\d+\.[A-Za-z0-9_-]+$/);
    // The link gives back the same challenge, as the students' page reads it (#ch=…).
    const back = decodeChallengeLink(`#${step.carried!}`);
    expect(back?.ok && back.challenge).toEqual(step.challenge);
  });

  it.each([
    [
      'a goal the format does not have',
      { ...own(), goal: { kind: 'win' } },
      'steps.0.challenge.goal.kind',
    ],
    [
      'a start preset the library does not have',
      { ...own(), start: { preset: 'no-such-preset' } },
      'steps.0.challenge.start.preset',
    ],
    [
      'a shipped challenge’s id',
      { ...own(), id: 'commit-before-crash-point' },
      'steps.0.challenge.id',
    ],
  ])('is refused with %s, naming the field', (_, challenge, path) => {
    const r = parseLesson(lesson(challenge));
    expect(!r.ok && r.issues.map((i) => i.path)).toEqual([path]);
  });

  it('a shipped challenge’s id says how to name the shipped one instead', () => {
    const r = parseLesson(lesson({ ...own(), id: 'commit-before-crash-point' }));
    expect(!r.ok && r.issues[0]!.message).toBe(
      '"commit-before-crash-point" is a shipped challenge\'s id (?challenge=commit-before-crash-point opens that one): give this one an id of its own, or write "challenge": "commit-before-crash-point" for the shipped one',
    );
  });

  it('is refused when too large to travel in the link the phones open (2,000 characters)', () => {
    // Hints no compressor can shorten much: 6 (the most) of 400 pseudo-random letters each.
    let x = 7;
    const noise = () =>
      Array.from({ length: 400 }, () => {
        x = (x * 48271) % 2147483647;
        return String.fromCharCode(97 + (x % 26));
      }).join('');
    const hints = Array.from({ length: 6 }, (_, k) => ({ after: k + 1, text: noise() }));
    const r = parseLesson(lesson({ ...own(), hints }));
    expect(!r.ok && r.issues.map((i) => i.path)).toEqual(['steps.0.challenge']);
    expect(!r.ok && r.issues[0]!.message).toMatch(
      /^too large to travel in the link the students open: 2,\d{3} characters compressed, at most 2,000 — /,
    );
  });

  it('is checked when another field of its step is refused', () => {
    const l = lesson({ ...own(), goal: { kind: 'win' } });
    (l.steps[0] as { pace?: number }).pace = -1;
    const r = parseLesson(l);
    expect(!r.ok && r.issues.map((i) => i.path)).toEqual([
      'steps.0.pace',
      'steps.0.challenge.goal.kind',
    ]);
  });
});
