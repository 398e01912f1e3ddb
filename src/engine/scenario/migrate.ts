/**
 * Forward migration of scenario files. Each step takes version n to n+1; `migrate` applies them in
 * order up to {@link CURRENT_VERSION}. Version 1 is the first published format, so there is no step
 * yet: the table is where the next one goes, with a test. The same rule migrates every versioned
 * file of the lab ({@link migrateVersions}: lesson files too, src/scenarios/lessons).
 */
import type { Issue } from './validate';
import { echoValue } from './echo';

/** The version this build writes. */
export const CURRENT_VERSION = 1;

/** One migration step: a raw object of version n → version n+1 (its `version` is set after). */
export type MigrationStep = (s: Record<string, unknown>) => Record<string, unknown>;

/** `steps[n]` migrates version n to n+1. */
const steps: Record<number, MigrationStep> = {};

/** Migrate a raw scenario object to the current version; refuse versions from the future. */
export function migrate(
  raw: unknown,
): { ok: true; value: unknown } | { ok: false; issues: Issue[] } {
  return migrateVersions(raw, { current: CURRENT_VERSION, steps, what: 'a scenario' });
}

/**
 * Migrate a raw versioned object (`version`: a whole number from 1) to `current`, applying
 * `steps[n]` for each version n it passes; refuse a missing, malformed or future version.
 * @param o.what - what the object is, for the message when it is not an object ("a lesson").
 */
export function migrateVersions(
  raw: unknown,
  o: { current: number; steps: Readonly<Record<number, MigrationStep>>; what: string },
): { ok: true; value: unknown } | { ok: false; issues: Issue[] } {
  const { current } = o;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, issues: [{ path: '', message: `${o.what} is a JSON object` }] };
  let obj = raw as Record<string, unknown>;
  const v = obj.version;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
    return {
      ok: false,
      issues: [
        {
          path: 'version',
          message:
            v === undefined
              ? `required: the format's version number (current: ${current})`
              : `expected the format's version number, a whole number from 1 (current: ${current}); got ${echoValue(v)}`,
        },
      ],
    };
  if (v > current)
    return {
      ok: false,
      issues: [
        {
          path: 'version',
          message: `version ${v} is newer than this Delivery Lab (${current}); update the app`,
        },
      ],
    };
  for (let n = v; n < current; n++) {
    const step = o.steps[n];
    if (!step)
      return {
        ok: false,
        issues: [{ path: 'version', message: `no migration from version ${n}` }],
      };
    obj = { ...step(obj), version: n + 1 };
  }
  return { ok: true, value: obj };
}
