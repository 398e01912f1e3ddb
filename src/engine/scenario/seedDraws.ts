/** What a scenario's seed draws, in words: read by the reports, no schema needed. */
import type { Scenario } from './schema';

/**
 * What the seed draws in this scenario, in words ("network jitter", "2 random faults", "Poisson
 * arrivals", …); empty when nothing in it is random — every seed then gives the same run.
 */
export function seedDraws(s: Scenario): string[] {
  const out: string[] = [];
  if (s.network.jitterMs > 0) out.push('network jitter');
  const random = s.faults.filter((f) => f.kind === 'random').length;
  if (random > 0) out.push(random === 1 ? 'a random fault' : `${random} random faults`);
  const g = s.workload.generate;
  if (g?.arrivals === 'poisson') out.push('Poisson arrivals');
  if (g?.keyChoice === 'random') out.push('random keys');
  if (g?.amounts === 'random') out.push('random amounts');
  return out;
}
