/**
 * The one question model of "Predict first", for the page and the embedded player alike: what is
 * asked (a preset's question, an author's, or the question any run can be asked), and how a
 * prediction is marked against its answer — a choice, numbers with their units and tolerance, the
 * events named, or not at all (a question answered in words). Pure: tested without a browser.
 */
import type { Verdict } from '../../engine';
import type { AskedNumber, ChoiceOption, PredictMark, Preset } from '../../scenarios';

/** A question "Predict first" asks. */
export interface AskedQuestion {
  /** The subject's key, under which its prediction is kept (see PredictionProvider). */
  key: string;
  text: string;
  /** Its answer, shown on the reveal; '' when none was written (the run's outcome answers it). */
  answer: string;
  /**
   * The question any run can be asked ({@link PREDICTION_CHOICES}): the reveal says whether the
   * choice names what the run showed. Otherwise the preset's `mark` says how it is answered.
   */
  choices: boolean;
  /**
   * How a prediction is marked (a preset's question: PredictMark). Without it (an author's
   * question), a prediction in words is marked only when the answer starts with one count.
   */
  mark?: PredictMark;
}

/** A preset's own question, kept under `key` (on the page: the preset's id). */
export function presetQuestion(key: string, p: Pick<Preset, 'predict'>): AskedQuestion {
  return {
    key,
    text: p.predict.question,
    answer: p.predict.answer,
    choices: false,
    mark: p.predict.mark,
  };
}

/**
 * A question an author wrote (an embed's `q=` and `a=`, a share link's `p`); with no question
 * written, the question any run can be asked.
 */
export function authorQuestion(key: string, text: string, answer: string): AskedQuestion {
  return text ? { key, text, answer, choices: false } : genericQuestion(key);
}

/** The question any run can be asked, with its four choices judged against the run's verdict. */
export function genericQuestion(key: string): AskedQuestion {
  return { key, text: GENERIC_QUESTION, answer: '', choices: true };
}

/** What the run showed, as the verdict names it (`exactly-once`, `at-least-once`, …). */
export type Observed = Verdict['observed'];

/**
 * The answers of the question any run can be asked ("What will the sink end with?"), one per
 * outcome the verdict can observe: a choice is right when it names what the run showed.
 */
export const PREDICTION_CHOICES: readonly {
  id: Observed;
  label: string;
  /** What the run showed, as the end of a sentence ("the run shows …"). */
  shows: string;
}[] = [
  {
    id: 'exactly-once',
    label: 'Every event exactly once',
    shows: 'every event exactly once',
  },
  { id: 'at-most-once', label: 'Some events lost', shows: 'some events lost, none twice' },
  { id: 'at-least-once', label: 'Some events twice', shows: 'some events twice, none lost' },
  { id: 'none', label: 'Some lost and some twice', shows: 'some events lost and some twice' },
];

/** The question any run can be asked (its answers: {@link PREDICTION_CHOICES}). */
export const GENERIC_QUESTION = 'What will the sink end with?';

/**
 * A choice judged against the run: right when it names what the verdict observed at the end of
 * the pipeline; `shows` says what that was. An id that is not a choice is never right.
 */
export function judgeChoice(choice: string, observed: Observed): { right: boolean; shows: string } {
  const shown = PREDICTION_CHOICES.find((c) => c.id === observed)!;
  return { right: choice === observed, shows: shown.shows };
}

/**
 * A free-text prediction judged against an answer that is one count ("24: p-4 twice…", "4. The
 * offset…", "10 — one per…"): right when the prediction holds exactly that whole number. Null —
 * nothing judged, the answer speaks alone — when the answer is not a single count ("11 rows
 * summing to 580" asks two things), or the prediction holds no number, more than one, or one
 * that is not a whole number ("-200", "200.5").
 */
export function judgeCount(
  prediction: string,
  answer: string,
): { right: boolean; expected: number; said: number } | null {
  const m = /^\s*(\d[\d,]*)(?=[:.] | — )/.exec(answer);
  const numbers = prediction.match(/[-+]?\d[\d,]*(?:\.\d+)?(?:e\d+)?/gi) ?? [];
  if (!m || numbers.length !== 1 || !/^\d[\d,]*$/.test(numbers[0]!)) return null;
  const expected = Number(m[1]!.replace(/,/g, ''));
  const said = Number(numbers[0]!.replace(/,/g, ''));
  return { right: said === expected, expected, said };
}

/** A written prediction marked against a preset's answer ({@link markPrediction}). */
export type PredictionMarking =
  | {
      kind: 'right' | 'wrong';
      /** The answer as marked ("11 and 580", "$80", "e4, e5, e6 and e7"). */
      expected: string;
      /** What the prediction said, in the same form. */
      said: string;
      /** A part of the question answered in words, not marked ("whether anything reports…"). */
      notMarked?: string;
      /** A wrong choice: the misconception it stands for, and why not. */
      whyNot?: string;
    }
  | {
      kind: 'unmarked';
      /** Why, in a sentence the page shows after "Not marked: ". */
      why: string;
    };

/** "a", "a and b", "a, b and c". */
function listOf(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

// Ids are not counts: "p-77", "e201", "o1" (a letter, maybe a hyphen, digits) are taken out first.
const ID = /\b[a-z][a-z_]*-?\d+\b/gi;
// A number as written: 1,250 (thousands), 11, -3, 2.5, 1e3 — only whole ones are counts.
const NUMBER = /[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e\d+)?/gi;
const WORDS: Readonly<Record<string, number>> = {
  none: 0,
  zero: 0,
  once: 1,
  one: 1,
  twice: 2,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};

/**
 * The numbers a text gives, in order: digits (ids such as "p-77" or "e201" left out), else — only
 * when there are none — small numbers in words ("two", "twice"). Null when one is not a whole,
 * non-negative number ("-200", "200.5", "1e3").
 */
export function numbersIn(text: string): number[] | null {
  const rest = text.replace(ID, ' ');
  const found = rest.match(NUMBER) ?? [];
  if (found.length === 0)
    return (rest.toLowerCase().match(/[a-z]+/g) ?? [])
      .filter((w) => w in WORDS)
      .map((w) => WORDS[w]!);
  if (found.some((n) => !/^\d[\d,]*$/.test(n))) return null;
  return found.map((n) => Number(n.replace(/,/g, '')));
}

/** The event ids a text names, ranges expanded ("e4..e7", "e4–e7", "e4 to e7"), lower case. */
export function eventsIn(text: string): string[] {
  const ids = new Set<string>();
  const re = /\b([a-z]+)-?(\d+)(?:\s*(?:\.{2,3}|…|–|—|-|\bto\b|\bthrough\b)\s*(?:\1-?)?(\d+))?\b/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const prefix = m[1]!.toLowerCase();
    const from = Number(m[2]);
    const to = m[3] === undefined ? from : Number(m[3]);
    // A range of at most 1,000 ids, forwards: anything else is read as its two ends.
    if (to >= from && to - from <= 1000) for (let n = from; n <= to; n++) ids.add(`${prefix}${n}`);
    else [from, to].forEach((n) => ids.add(`${prefix}${n}`));
  }
  return [...ids];
}

const byNumber = (a: string, b: string) =>
  Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')) || a.localeCompare(b);

/** A number as a prediction gives it, with the word after it ("2 charges") or `$` before it. */
interface SaidNumber {
  value: number;
  /** The word after the number, lower case, or `$`; '' when none. */
  unit: string;
}

// Ids are taken out first ("p-77" is not 77), then the numbers with what surrounds them.
const NUMBER_WITH_UNIT =
  /(\$\s*)?([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e\d+)?)(?:\s*(?:x\b|×)|\s+([a-z]+))?/gi;

/**
 * The numbers a prediction gives, with their units, in order. A sum written out ("10 + 5 = 15")
 * gives what follows its last `=`. Null when one is not a whole, non-negative number.
 */
export function saidNumbers(text: string): SaidNumber[] | null {
  const eq = text.lastIndexOf('=');
  const rest = (eq >= 0 ? text.slice(eq + 1) : text).replace(ID, ' ');
  const out: SaidNumber[] = [];
  for (const m of rest.matchAll(NUMBER_WITH_UNIT)) {
    if (!/^\d[\d,]*$/.test(m[2]!)) return null;
    out.push({
      value: Number(m[2]!.replace(/,/g, '')),
      unit: m[1] ? '$' : (m[3] ?? '').toLowerCase(),
    });
  }
  if (out.length > 0) return out;
  // Small numbers in words ("two charges", "twice"), each with the word after it.
  const words = rest.toLowerCase().match(/[a-z]+/g) ?? [];
  words.forEach((w, k) => {
    if (w in WORDS) out.push({ value: WORDS[w]!, unit: words[k + 1] ?? '' });
  });
  return out;
}

/** Whether `unit` is one of `units`, singular or plural ("charge", "charges"). */
function unitIn(unit: string, units: readonly string[] | undefined): boolean {
  if (!unit || !units) return false;
  const one = unit.replace(/s$/, '');
  return units.some((u) => u.toLowerCase().replace(/s$/, '') === one);
}

/** The asked number's main units: its own, and `$` for a prefix `$` ("dollars" too). */
function mainUnits(n: AskedNumber): string[] {
  return [...(n.units ?? []), ...(n.prefix === '$' ? ['$', 'dollar', 'usd'] : [])];
}

/** One number said, against the number asked: right, wrong, and how it reads. */
function judgeNumber(n: AskedNumber, said: SaidNumber): { right: boolean; said: string } {
  const near = (a: number, b: number) => Math.abs(a - b) <= (n.tolerance ?? 0);
  const inAlso = n.alsoAs !== undefined && unitIn(said.unit, n.alsoAs.units);
  if (inAlso) {
    const unit = said.unit;
    return { right: said.value === n.alsoAs!.value, said: `${said.value} ${unit}` };
  }
  const show = `${n.prefix ?? ''}${said.value.toLocaleString('en-US')}`;
  // A bare number ("2") for a question that also accepts another unit is read in either.
  const bare = !unitIn(said.unit, mainUnits(n)) && said.unit !== '$';
  const right = near(said.value, n.value) || (bare && n.alsoAs?.value === said.value);
  return { right, said: show };
}

/**
 * A prediction marked against a preset's answer, as its `mark` says (see PredictMark):
 * - `numbers`: right when the prediction gives the asked numbers, in the asked order, each
 *   within its tolerance and in its unit (or the same answer in its other unit: "2 charges" for
 *   "$80"). A prediction with more numbers than asked may repeat some of the question's ("18 of
 *   20" for "how many of the 20…?"): those are left out, the last first, until as many as asked
 *   remain. Another count of numbers, or one that is not whole, is not marked — and says why.
 * - `events`: right when the prediction names exactly the asked events.
 * - `choice`: right when the option chosen (its id or its text) is the right one; a wrong one
 *   carries its "why not".
 * - `words`: never marked.
 * @param question - the question's text (its numbers may be repeated in the prediction).
 */
export function markPrediction(
  prediction: string,
  mark: PredictMark,
  question = '',
): PredictionMarking {
  switch (mark.kind) {
    case 'words':
      return {
        kind: 'unmarked',
        why: 'this question is answered in words — compare yours with the answer.',
      };
    case 'choice': {
      const right = mark.options.find((o) => o.right)!;
      const chosen = findOption(mark.options, prediction);
      if (!chosen) return { kind: 'unmarked', why: 'no option is chosen.' };
      if (chosen === right) return { kind: 'right', expected: right.text, said: chosen.text };
      return {
        kind: 'wrong',
        expected: right.text,
        said: chosen.text,
        ...(chosen.whyNot ? { whyNot: chosen.whyNot } : {}),
      };
    }
    case 'events': {
      const expected = [...mark.ids].map((id) => id.toLowerCase()).sort(byNumber);
      const said = eventsIn(prediction).sort(byNumber);
      if (said.length === 0)
        return {
          kind: 'unmarked',
          why: `your prediction names no event (such as ${expected[0] ?? 'e1'}); compare it with the answer.`,
        };
      const right = said.length === expected.length && said.every((id, k) => id === expected[k]);
      return { kind: right ? 'right' : 'wrong', expected: listOf(expected), said: listOf(said) };
    }
    case 'numbers': {
      const asked = mark.values;
      const show = (n: AskedNumber) => `${n.prefix ?? ''}${n.value.toLocaleString('en-US')}`;
      const whats = listOf(asked.map((v) => v.what));
      const wanted =
        asked.length === 1 ? `one number (${whats})` : `${asked.length} numbers (${whats})`;
      let said = saidNumbers(prediction);
      if (said === null)
        return {
          kind: 'unmarked',
          why: `the question asks for ${wanted}, in whole numbers, none below 0.`,
        };
      if (said.length > asked.length) {
        // The question's own numbers repeated ("18 of 20", "150 of the 200"): left out, the
        // last first, until as many as asked remain.
        const given = new Set(numbersIn(question) ?? []);
        const kept = [...said];
        for (let k = kept.length - 1; k >= 0 && kept.length > asked.length; k--)
          if (given.has(kept[k]!.value)) kept.splice(k, 1);
        if (kept.length === asked.length) said = kept;
        // One count said twice ("two rows: p-77 written twice").
        else if (asked.length === 1 && said.every((n) => n.value === said![0]!.value))
          said = [said[0]!];
      }
      if (said.length !== asked.length)
        return {
          kind: 'unmarked',
          why: `the question asks for ${wanted}; your prediction gives ${said.length === 0 ? 'none' : said.length}.`,
        };
      const judged = said.map((n, k) => judgeNumber(asked[k]!, n));
      return {
        kind: judged.every((j) => j.right) ? 'right' : 'wrong',
        expected: listOf(asked.map(show)),
        said: listOf(judged.map((j) => j.said)),
        ...(mark.alsoAsks ? { notMarked: mark.alsoAsks } : {}),
      };
    }
    default: {
      const never: never = mark;
      return never;
    }
  }
}

/** The option a prediction names: by id, else by its text (any case). */
function findOption(options: readonly ChoiceOption[], said: string): ChoiceOption | undefined {
  const t = said.trim().toLowerCase();
  return options.find((o) => o.id === said) ?? options.find((o) => o.text.toLowerCase() === t);
}

/**
 * Why a prediction cannot be locked in yet, or null when it can: a number question needs as many
 * whole numbers as it asks ("twice" for "how many rows, and what sum?" says the sum is missing),
 * an events question an event, a choice question a choice. The reason is the marking's own.
 */
export function predictionProblem(
  prediction: string,
  mark: PredictMark,
  question = '',
): string | null {
  if (mark.kind === 'words') return null;
  const m = markPrediction(prediction, mark, question);
  if (m.kind !== 'unmarked') return null;
  return m.why.charAt(0).toUpperCase() + m.why.slice(1);
}

/**
 * What the prediction box tells before the answer about how it will be marked, or null when there
 * is nothing to say (a choice, or one number with no unit to name): a question answered in words
 * is not marked, and says so plainly; several numbers are marked in the order asked.
 */
export function markNote(mark: PredictMark): string | null {
  switch (mark.kind) {
    case 'words':
      return 'Answered in words: your prediction is not marked right or wrong — compare it with the answer.';
    case 'choice':
      return null;
    case 'events':
      return 'Name the events (e1, e2 or a range e1..e3): marked right when you name exactly those the run shows.';
    case 'numbers': {
      const whats = listOf(mark.values.map((v) => v.what));
      if (mark.alsoAsks)
        return `Marked on the number (${whats}); ${mark.alsoAsks} is not marked — compare it with the answer.`;
      return mark.values.length > 1
        ? `Marked on ${mark.values.length} numbers: ${whats}, in that order.`
        : null;
    }
    default: {
      const never: never = mark;
      return never;
    }
  }
}

/** The unit a number question's input shows beside it ("rows", "$"), or '' for none. */
export function numberUnit(n: AskedNumber): string {
  return n.prefix ?? n.units?.[0] ?? n.what;
}
