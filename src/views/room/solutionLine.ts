/**
 * A student's solution in one line, as the presenter's panel lists it ("Solution 1 ·
 * enable.idempotence=true") and the results CSV keeps it: each knob as `name=value`, each fault
 * added as its kind and the fields the student set, in the challenge format's own terms
 * (docs/challenges.md). A Kafka client's or a job's knob goes by its real config name
 * (`enable.idempotence`, not `producer.enable.idempotence`); the lab's own sections keep their
 * path (`sink.statement`, `readers.0.isolation.level`). Pure: the server's CSV and the page share it.
 */
import { FaultSchema } from '../../engine/scenario/schemaFaults';
import type { RoomSolution } from './protocol';

/** The sections whose knobs are the real system's config names. */
const CONFIG_SECTIONS = /^(producer|processor|broker)\./;

const shown = (v: unknown): string =>
  typeof v === 'string' ? v : v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);

/**
 * Whether a fault's field holds what the format would give it unwritten: the page's fault menu
 * writes some fields at their defaults (`restartAfterMs: 1000`, `at: 0` at the run's start,
 * `match: { nth: 1 }`), and a line of them hid what the student chose. A fault the schema refuses
 * keeps every field (the panel judges it anyway).
 */
function isDefault(fault: Record<string, unknown>, key: string): boolean {
  const whole = FaultSchema.safeParse(fault);
  const without = FaultSchema.safeParse(
    Object.fromEntries(Object.entries(fault).filter(([k]) => k !== key)),
  );
  if (!whole.success || !without.success) return false;
  const of = (parsed: object) => JSON.stringify((parsed as Record<string, unknown>)[key]);
  return of(whole.data) === of(without.data);
}

/** `enable.idempotence=true, crash target=consumer-0 point=after-commit`. */
export function solutionLine(solution: RoomSolution): string {
  const knobs = solution.knobs.map(
    (k) => `${k.path.replace(CONFIG_SECTIONS, '')}=${shown(k.value)}`,
  );
  const faults = solution.faults.map((f) => {
    const fields = Object.entries(f)
      // Its label is the student's own word, not what it changed.
      .filter(([key]) => key !== 'kind' && key !== 'id' && !isDefault(f, key))
      .map(([key, value]) => `${key}=${shown(value)}`);
    return [f.kind, ...fields].join(' ');
  });
  return [...knobs, ...faults].join(', ');
}
