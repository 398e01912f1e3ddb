/**
 * The heading of one lane in `sim … --compare`'s text: `── lane 2: exactly-once`, or `── lane 1`
 * alone when the lane's report opens by naming it already — lane 1's scenario name beside its
 * preset (`… [at-least-once/default]`, a batch job's `… (clear-rerun-window/clock-overwrite)`),
 * a knob lane's `lane 1 with …` — so that a title is said once, not twice in two lines.
 */
export function laneHeading(number: number, title: string, firstLine: string | null): string {
  const named =
    firstLine !== null &&
    (firstLine === title ||
      firstLine.startsWith(`${title} — `) ||
      firstLine.includes(`[${title}]`) ||
      firstLine.includes(`(${title})`));
  return named ? `── lane ${number}` : `── lane ${number}: ${title}`;
}
