/**
 * A number as `toLocaleString('en-US')` writes it (`12,345`, `1,234.5`), without Intl: the first
 * Intl number format a process makes loads ICU's locale data, ~20–30 ms of CPU (and more wall
 * time) that a CLI run printing one sum paid at start-up (issue 28). Digits are grouped by three;
 * a number whose shortest form has more than 3 decimals (which en-US rounds), an exponent, or no
 * digits (NaN, ±Infinity) is left to `toLocaleString` itself. groupDigits.test.ts checks it gives
 * the same text as `toLocaleString('en-US')`.
 */
export function groupDigits(n: number): string {
  if (Object.is(n, -0)) return '-0';
  const m = /^(-?)(\d+)(\.\d{1,3})?$/.exec(String(n));
  if (!m) return n.toLocaleString('en-US');
  return `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+$)/g, ',')}${m[3] ?? ''}`;
}
