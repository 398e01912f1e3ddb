import { lazy, Suspense, type ReactNode } from 'react';
import { useAllRows, type RowLayout, type RowsOptions } from '../hooks/useAllRows';

/**
 * Up to this many rows a list renders every row (useAllRows); past it, only those in view (the
 * virtualizer, a lazy chunk). 64 rows render in well under a frame; the library's small presets
 * (their sink tables, their partitions' logs) stay under it, so an embed of one fetches no
 * virtualizer (issue 31: the embed ≤ 150 KB gzip).
 */
export const PLAIN_ROWS_MAX = 64;

const VirtualRows = lazy(() => import('./VirtualRows'));

/**
 * Rows a long list shows while the virtualizer loads: more than fill its box (16em of 24 px rows
 * at the page's 14 px: 10), few enough that a page of tables and logs renders them at once.
 */
const FIRST_ROWS = 16;

/**
 * A list's rows, laid out by `children` from a {@link RowLayout}: every row when `plain`, else
 * virtualized. The caller decides `plain` from the list's length at the run's end, not at the
 * cursor: a table does not change layout (and lose its scroll position) while the run plays.
 */
export function Rows({
  plain,
  children,
  ...options
}: RowsOptions & { plain: boolean; children: (rows: RowLayout) => ReactNode }) {
  if (plain) return <PlainRows {...options}>{children}</PlainRows>;
  // Until the virtualizer's chunk is in (a moment, once per page): the first rows, in a list as
  // tall as the whole — the box (at most 16em tall, styles.css) has its final height at once,
  // which the embed's height reservation measures (src/ui/embed/ReserveHeight.tsx).
  return (
    <Suspense fallback={<FirstRows {...options}>{children}</FirstRows>}>
      <VirtualRows {...options}>{children}</VirtualRows>
    </Suspense>
  );
}

function PlainRows({
  children,
  ...options
}: RowsOptions & { children: (rows: RowLayout) => ReactNode }) {
  return children(useAllRows(options));
}

function FirstRows({
  children,
  ...options
}: RowsOptions & { children: (rows: RowLayout) => ReactNode }) {
  const { count, size, paddingStart = 0 } = options;
  const first = useAllRows({ ...options, count: Math.min(count, FIRST_ROWS) });
  return children({ ...first, getTotalSize: () => paddingStart + count * size });
}
