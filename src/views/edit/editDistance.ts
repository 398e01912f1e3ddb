/**
 * Levenshtein distance of two short strings (insertions, deletions, substitutions), for the
 * "did you mean …?" of a misspelt name: an embed's parameter, a configuration file's key.
 */
export function distance(x: string, y: string): number {
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++)
      row.push(
        Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1)),
      );
    prev = row;
  }
  return prev[y.length]!;
}
