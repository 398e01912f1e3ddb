/**
 * Which placements an atlas benchmark (or outcome check) runs: all of them, or, above `above`,
 * `size` evenly spaced ones — each as a one-placement trial (`trialFaults`' index lists). One
 * rule, so that the bench, its profile and scripts/atlas-outcomes.ts time and hash the same trials.
 */
export function pickPlacements(n: number, size: number, above = size): number[][] {
  if (n <= above) return Array.from({ length: n }, (_, i) => [i]);
  return Array.from({ length: size }, (_, i) => [Math.floor((i * n) / size)]);
}
