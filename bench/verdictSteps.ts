/**
 * The first verdict's steps (issue 24: first verdict ≤ 500 ms), read from the page's own
 * Performance entries right after the verdict is drawn: where the time goes, beside the total that
 * bench/ui.bench.ts prints. Each step is the time since navigation start (ms) at which:
 * - `html`: the document arrived;
 * - `js`: the last script the entry needed before main.tsx ran had arrived (resource timing);
 * - `presets`: the presets the address opens were in (src/ui/io/firstPresets.ts's mark);
 * - `main`: main.tsx began (its imports evaluated, the presets awaited by src/ui/io/bootLab.ts);
 * - `run`: the first run had settled (simulated and derived: the lab's `settled()`);
 * - `render`: the first render began (main.tsx, after the run or FIRST_RUN_WAIT_MS);
 * - `verdict`: the verdict was on screen (the caller's figure);
 * and `files`: how many files the page had fetched by then.
 */
import type { Page } from 'playwright-core';

export const VERDICT_STEPS = ['html', 'js', 'presets', 'main', 'run', 'render', 'verdict'] as const;
export type VerdictSteps = Record<(typeof VERDICT_STEPS)[number] | 'files', number>;

export async function verdictSteps(page: Page, verdict: number): Promise<VerdictSteps> {
  const steps = await page.evaluate(() => {
    const mark = (name: string) => performance.getEntriesByName(name, 'mark')[0]?.startTime ?? NaN;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const main = mark('lab:main-evaluated');
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((r) => r.name.endsWith('.js') && r.responseEnd <= main)
      .map((r) => r.responseEnd);
    return {
      html: nav.responseEnd,
      js: scripts.length > 0 ? Math.max(...scripts) : NaN,
      presets: mark('lab:presets-in'),
      main,
      run: mark('lab:run-settled'),
      render: mark('lab:render'),
    };
  });
  const files = await page.evaluate(
    (t) => performance.getEntriesByType('resource').filter((r) => r.startTime <= t).length,
    verdict,
  );
  return { ...steps, verdict, files };
}

/** One line: each step's median over the loads, and the median step-to-step gaps. */
export function verdictStepsLine(all: VerdictSteps[]): string {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  // A build without the marks (before 2026-12-03's fourth session) has only html and verdict.
  const at = VERDICT_STEPS.map((k) => {
    const m = median(all.map((s) => s[k]));
    return `${k} ${Number.isFinite(m) ? m.toFixed(0) : '–'}`;
  });
  const files = median(all.map((s) => s.files));
  return `first verdict's steps (median ms since navigation): ${at.join(' → ')}; ${files} files fetched`;
}
