import type { PredictMark } from '../../src/scenarios';

/**
 * An answer the question accepts (`predictionProblem` refuses one it cannot mark): its numbers,
 * its events (a question of events refused the numbers "1, 1" a loop tried — "your prediction
 * names no event": rebalance-midflight was never locked in), or words. For the loops that lock
 * every library story in (e2e/present-locked.spec.ts, scripts/present-fit.ts --locked).
 */
export function writtenAnswer(mark: PredictMark): string {
  switch (mark.kind) {
    case 'numbers':
      return mark.values.map((v) => String(v.value)).join(', ');
    case 'events':
      return mark.ids.join(', ');
    case 'words':
    case 'choice':
      return 'a guess';
    default: {
      const never: never = mark;
      return never;
    }
  }
}
