/**
 * Forward migration of scenario files. Each step takes version n to n+1; `migrate` applies them in
 * order up to {@link CURRENT_VERSION}. Version 1 is the first published format, so there is no step
 * yet: the table is where the next one goes, with a test.
 */
import type { Issue } from './validate';
import { echoValue } from './echo';

/** The version this build writes. */
export const CURRENT_VERSION = 1;

/** One migration step: an object of version n to version n+1. */
export type Step = (s: Record<string, unknown>) => Record<string, unknown>;

/** `steps[n]` migrates version n to n+1. */
const steps: Record<number, Step> = {};

/** A versioned JSON format: what its objects are called, the version this build writes, its steps. */
export interface VersionedFormat {
  /** The noun of its messages: "a scenario", "a challenge". */
  noun: string;
  current: number;
  /** `steps[n]` migrates version n to n+1. */
  steps: Readonly<Record<number, Step>>;
}

/** Migrate a raw scenario object to the current version; refuse versions from the future. */
export function migrate(
  raw: unknown,
): { ok: true; value: unknown } | { ok: false; issues: Issue[] } {
  return migrateFormat(raw, { noun: 'a scenario', current: CURRENT_VERSION, steps });
}

/**
 * Migrate a raw object of a versioned format (a scenario, a challenge) to its current version,
 * one step at a time; refuse a missing or malformed version and versions from the future.
 */
export function migrateFormat(
  raw: unknown,
  format: VersionedFormat,
): { ok: true; value: unknown } | { ok: false; issues: Issue[] } {
  const { noun, current, steps } = format;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, issues: [{ path: '', message: `${noun} is a JSON object` }] };
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
    const step = steps[n];
    if (!step)
      return {
        ok: false,
        issues: [{ path: 'version', message: `no migration from version ${n}` }],
      };
    obj = { ...step(obj), version: n + 1 };
  }
  return { ok: true, value: obj };
}
