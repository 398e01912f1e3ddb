import type { ReactNode } from 'react';
import { useAllRows, type RowLayout, type RowsOptions } from '../hooks/useAllRows';
import { useWindowedRows } from '../hooks/useWindowedRows';

/**
 * Up to this many rows a list renders every row (useAllRows); past it, only those in view
 * (useWindowedRows). 64 rows render in well under a frame; the library's small presets (their
 * sink tables, their partitions' logs) stay under it.
 */
export const PLAIN_ROWS_MAX = 64;

/**
 * A list's rows, laid out by `children` from a {@link RowLayout}: every row when `plain`, else
 * those in view. The caller decides `plain` from the list's length at the run's end, not at the
 * cursor: a table does not change layout (and lose its scroll position) while the run plays.
 */
export function Rows({
  plain,
  children,
  ...options
}: RowsOptions & { plain: boolean; children: (rows: RowLayout) => ReactNode }) {
  return plain ? (
    <PlainRows {...options}>{children}</PlainRows>
  ) : (
    <WindowedRows {...options}>{children}</WindowedRows>
  );
}

function PlainRows({
  children,
  ...options
}: RowsOptions & { children: (rows: RowLayout) => ReactNode }) {
  return children(useAllRows(options));
}

function WindowedRows({
  children,
  ...options
}: RowsOptions & { children: (rows: RowLayout) => ReactNode }) {
  return children(useWindowedRows(options));
}
