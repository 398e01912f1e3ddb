/**
 * The solution a student's challenge tab kept: the last attempt that solved the challenge, as the
 * changes from its start (src/views/challenge/solutionAttempt.ts), in `localStorage` beside the
 * challenge's progress, under `delivery-lab:challenge:<id>:solution` as `{ version: 1, knobs,
 * faults }`. The room's phone page — the same browser and origin as the challenge's tab — reads it
 * to send with "Solved it" (docs/classroom.md), validated by the protocol's schema: anything else
 * stored there (hand-edited, another version) reads as no solution.
 */
import { RoomSolutionSchema, type RoomSolution } from '../views/room/protocol';
import { progressKey } from './challengeProgress';

/** The storage key of a challenge's kept solution, beside its progress's. */
export function keptSolutionKey(id: string): string {
  return `${progressKey(id)}:solution`;
}

/** Keep `solution` for the challenge `id` (nothing when storage cannot be used). */
export function keepSolution(
  id: string,
  solution: RoomSolution,
  storage: Pick<Storage, 'setItem'> | null,
): void {
  try {
    storage?.setItem(keptSolutionKey(id), JSON.stringify({ version: 1, ...solution }));
  } catch {
    // Storage full or refused: "Solved it" goes without it, as before.
  }
}

/** The solution kept for `id`, validated, or null when there is none or it cannot be read. */
export function readKeptSolution(
  id: string,
  storage: Pick<Storage, 'getItem'> | null,
): RoomSolution | null {
  try {
    const raw = storage?.getItem(keptSolutionKey(id));
    if (!raw) return null;
    const stored = JSON.parse(raw) as unknown;
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return null;
    const { version, ...solution } = stored as Record<string, unknown>;
    if (version !== 1) return null;
    const checked = RoomSolutionSchema.safeParse(solution);
    return checked.success ? checked.data : null;
  } catch {
    return null;
  }
}
