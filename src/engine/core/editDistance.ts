/**
 * Edit distance of two short strings — insertions, deletions, substitutions and a swap of two
 * neighbouring letters, each one edit (the optimal string alignment distance: `akcs` is one swap
 * from `acks`) — for the "did you mean …?" of a misspelt name: an embed's parameter, a
 * configuration file's key, a CLI option, a scenario file's field.
 */
export function distance(x: string, y: string): number {
  const rows: number[][] = [Array.from({ length: y.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= x.length; i++) {
    const prev = rows[i - 1]!;
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      let d = Math.min(
        prev[j]! + 1,
        row[j - 1]! + 1,
        prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[x.length]![y.length]!;
}

/**
 * The candidate `name` is probably a misspelling of: the nearest one within `allowed(candidate)`
 * edits (the first listed wins a tie), or null.
 */
export function nearest<T extends string>(
  name: string,
  candidates: readonly T[],
  allowed: (candidate: T) => number,
): T | null {
  let best: T | null = null;
  let bestD = Infinity;
  for (const k of candidates) {
    const d = distance(name, k);
    if (d <= allowed(k) && d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best;
}

/**
 * How many edits a misspelt name may be from the name it meant: none under 4 letters (any letter
 * is one edit from `t`), one from 4, two from 6 — the embed's parameters, the CLI's options.
 */
export const misspellingBound = (name: string): number =>
  name.length >= 6 ? 2 : name.length >= 4 ? 1 : 0;
