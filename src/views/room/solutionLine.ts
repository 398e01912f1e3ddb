/**
 * A student's solution in one line, as the presenter's panel lists it ("Solution 1 ·
 * enable.idempotence=true") and the results CSV keeps it: each knob as `name=value`, each fault
 * added as its kind and fields, in the challenge format's own terms (docs/challenges.md). A
 * Kafka client's or a job's knob goes by its real config name (`enable.idempotence`, not
 * `producer.enable.idempotence`); the lab's own sections keep their path (`sink.statement`,
 * `readers.0.isolation.level`). Pure: the server's CSV and the page share it.
 */
import type { RoomSolution } from './protocol';

/** The sections whose knobs are the real system's config names. */
const CONFIG_SECTIONS = /^(producer|processor|broker)\./;

const shown = (v: unknown): string =>
  typeof v === 'string' ? v : v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);

/** `enable.idempotence=true, crash target=consumer-0 point=after-commit`. */
export function solutionLine(solution: RoomSolution): string {
  const knobs = solution.knobs.map(
    (k) => `${k.path.replace(CONFIG_SECTIONS, '')}=${shown(k.value)}`,
  );
  const faults = solution.faults.map((f) => {
    const fields = Object.entries(f)
      // Its label is the student's own word, not what it changed.
      .filter(([key]) => key !== 'kind' && key !== 'id')
      .map(([key, value]) => `${key}=${shown(value)}`);
    return [f.kind, ...fields].join(' ');
  });
  return [...knobs, ...faults].join(', ');
}
