/**
 * Forward migration of scenario files. Each step takes version n to n+1; `migrate` applies them in
 * order up to {@link CURRENT_VERSION}. Version 1 is the first published format, so there is no step
 * yet: the table is where the next one goes, with a test.
 */
import type { Issue } from './validate';
import { echoValue } from './echo';

/** The version this build writes. */
export const CURRENT_VERSION = 1;

type Step = (s: Record<string, unknown>) => Record<string, unknown>;

/** `steps[n]` migrates version n to n+1. */
const steps: Record<number, Step> = {};

/** Migrate a raw scenario object to the current version; refuse versions from the future. */
export function migrate(
  raw: unknown,
): { ok: true; value: unknown } | { ok: false; issues: Issue[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, issues: [{ path: '', message: 'a scenario is a JSON object' }] };
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
              ? `required: the format's version number (current: ${CURRENT_VERSION})`
              : `expected the format's version number, a whole number from 1 (current: ${CURRENT_VERSION}); got ${echoValue(v)}`,
        },
      ],
    };
  if (v > CURRENT_VERSION)
    return {
      ok: false,
      issues: [
        {
          path: 'version',
          message: `version ${v} is newer than this Delivery Lab (${CURRENT_VERSION}); update the app`,
        },
      ],
    };
  for (let n = v; n < CURRENT_VERSION; n++) {
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
