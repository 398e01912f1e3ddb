/**
 * Every problem at once: when the schema refuses some fields, the checks that need a whole
 * scenario (./semanticIssues.ts) still run on the faults, as long as the refused fields are not
 * ones a fault's check reads — so a bad `acks`, a negative `max.poll.records` and a fault naming a
 * component that does not exist are reported together, not in two passes.
 */
import { ScenarioSchema } from './schema';
import type { Issue } from './issueWords';
import { semanticIssues } from './semanticIssues';

/**
 * Fields whose value decides which components, crash points, events, topics and links a fault may
 * name: a schema problem in one of them (or at the root) makes the faults' checks guesses.
 */
const FAULT_INPUTS = [
  'version',
  'workload',
  'batch',
  'faults',
  'broker',
  'readers',
  'processor.type',
  'processor.instances',
  'processor.execution.checkpointing.interval',
  'sink.type',
  'sink.topic',
  'sink.transactional.id',
  'producer.transactional.id',
];

function readByFaults(path: string): boolean {
  return path === '' || FAULT_INPUTS.some((f) => path === f || path.startsWith(`${f}.`));
}

/**
 * The value with the field at a dotted path removed (its default then applies). A key may itself
 * hold dots (`max.poll.records`): at each level the longest key that the path starts with is
 * taken. False when the path leads nowhere.
 */
function removeAt(value: unknown, path: string): boolean {
  let node = value;
  let rest = path;
  for (;;) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return false;
    const obj = node as Record<string, unknown>;
    const key = Object.keys(obj)
      .filter((k) => rest === k || rest.startsWith(`${k}.`))
      .sort((a, b) => b.length - a.length)[0];
    if (key === undefined) return false;
    if (rest === key) return delete obj[key];
    node = obj[key];
    rest = rest.slice(key.length + 1);
  }
}

/**
 * The faults' own problems of a scenario the schema refused (`schema`: its issues), found on a
 * copy without the refused fields; none when a refused field is one the faults' checks read, or
 * the copy is refused still.
 */
export function faultIssuesBeside(input: unknown, schema: readonly Issue[]): Issue[] {
  if (schema.some((i) => readByFaults(i.path))) return [];
  // A deep copy of plain data (what JSON gave, after migration): the engine has no structuredClone.
  const copy = JSON.parse(JSON.stringify(input)) as unknown;
  for (const i of schema) if (!removeAt(copy, i.path)) return [];
  const parsed = ScenarioSchema.safeParse(copy);
  if (!parsed.success) return [];
  return semanticIssues(parsed.data).filter((i) => i.path.startsWith('faults.'));
}
