import { memo, useEffect, useRef, type RefObject } from 'react';
import {
  rowAmountAt,
  rowId,
  rowIdentity,
  rowsAt,
  rowSource,
  rowUpdatesAt,
  sourceChars,
} from '../../views/run/at';
import { amountChars, idChars } from '../../views/run/columnChars';
import { firstDuplicateRow, rowBeforeFirstLoss } from '../../views/run/firstDuplicateRow';
import { formatCountOf, formatMoney, ordinal } from '../../views/run/format';
import type { RunView, TableView } from '../../views/run/runView';
import type { LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import { Icon } from '../Icon';
import { useFontScale } from '../hooks/useFontScale';
import { useLaidOutStyle } from '../hooks/useLaidOutStyle';
import { useMeasuring } from '../hooks/useMeasuring';
import type { RowLayout } from '../hooks/useAllRows';
import { testIds } from '../testIds';
import { PLAIN_ROWS_MAX, Rows } from './Rows';
import { useFollowEnd } from './useFollow';
import { useWholeRowsPad } from './useWholeRowsPad';
import { useWholeRowsBox } from './useWholeRowsBox';
import { useCondensedCards } from './condensedCards';

const ROW_PX = 24;
const selectSelected = (s: LabState) => s.selected;
const selectPresent = (s: LabState) => s.present;
/** A view's `--row-scale` (src/ui/lesson/lesson.css), or 1 where none is set. */
const rowScaleOf = (s: CSSStyleDeclaration) => {
  const v = parseFloat(s.getPropertyValue('--row-scale'));
  return v > 0 ? v : 1;
};
const NO_DEPS: readonly unknown[] = [];

/**
 * A table of rows (the sink, or a reader's copy) at the cursor: every row when the table is short
 * (≤ PLAIN_ROWS_MAX rows at the run's end), else virtualized — 10,000 rows cost the ~15 in view.
 * A row that is the 2nd+ copy of its business id is marked (icon + text), an updated row says how
 * many times.
 */
export const RowTable = memo(function RowTable(props: TableProps) {
  const scroll = useRef<HTMLDivElement>(null);
  // A view that sizes its text by the screen rather than A+ / A− (the lesson view on a 1080p
  // projector: src/ui/lesson/lesson.css) says by how much in `--row-scale`: the rows are sized in
  // px and would overlap.
  // Read once the table is laid out (../hooks/useLaidOutStyle.ts: not forcing the page's first
  // style recalculation inside the first render); 1 until then, as on the page.
  const cssScale = useLaidOutStyle(scroll, rowScaleOf, Object.is, 1, NO_DEPS);
  const scale = useFontScale() * cssScale;
  // The sticky header row is one row tall: the rows start below it, and a row scrolled to is
  // placed below it.
  const head = ROW_PX * scale;
  return (
    <Rows
      plain={rowsAt(props.table, props.view.n) <= PLAIN_ROWS_MAX}
      count={rowsAt(props.table, props.idx)}
      size={ROW_PX * scale}
      scroll={scroll}
      paddingStart={head}
      scrollPaddingStart={head}
    >
      {(virt) => <TableBody {...props} scroll={scroll} virt={virt} scale={scale} head={head} />}
    </Rows>
  );
});

interface TableProps {
  view: RunView;
  table: TableView;
  idx: number;
  testId?: string;
  /** Narrow column: no source column, the copy mark as an icon and a number. */
  compact?: boolean;
}

function TableBody({
  view,
  table,
  idx,
  testId = testIds.sinkTable,
  compact = false,
  scroll,
  virt,
  scale,
  head,
}: TableProps & {
  scroll: RefObject<HTMLDivElement | null>;
  virt: RowLayout;
  scale: number;
  head: number;
}) {
  const cols = compact ? 'sink-cols compact' : 'sink-cols';
  const a = useActions();
  const selected = useLab(selectSelected);
  // Words wider than the projector's narrow table ("amount", "2nd"): there for screen readers
  // only, "$" and "×2" in view (present.css).
  const wideOnly = useLab(selectPresent) ? 'visually-hidden' : undefined;
  const count = rowsAt(table, idx);
  // The condensed cards' boxes take the height their card leaves: a whole number of rows of it
  // (once there are rows: an empty table says "no rows yet").
  const wholeRows = useCondensedCards() && count > 0;
  const cut = useWholeRowsBox(scroll, wholeRows, head, scale * ROW_PX);
  const pad = useWholeRowsPad(scroll, virt.getTotalSize(), head, scale * ROW_PX);
  // Following the end, it follows the taller rows too: A+ left it at its old offset, the last
  // rows below the bottom edge.
  useFollowEnd(scroll, count, () => count > 0 && virt.scrollToEnd(), scale, pad);
  // At the run's end the first duplicate row comes into view (and the rows around it, its first
  // copy often among them), not the last rows: those hid it in a table a few rows tall.
  // (Not in the embed's measuring pass: a scroll takes no room, and lays the player out.)
  const seen = !useMeasuring();
  const firstDup = seen && idx >= view.n ? firstDuplicateRow(table, count) : -1;
  // With no duplicate, the verdict's table shows where its first lost event belongs: the row
  // above the gap at the box's centre ("p-8", then "p-11"), not the last rows.
  const gapAbove =
    firstDup < 0 && seen && idx >= view.n && table === view.tables[view.primaryTable]
      ? rowBeforeFirstLoss(table, count, view.events.identity, (j) => view.verdict.fate[j] === 0)
      : -1;
  const endRow = firstDup >= 0 ? firstDup : gapAbove;
  useEffect(() => {
    if (endRow >= 0) virt.scrollToIndex(endRow, { align: 'center' });
    // Again when the pad changes (the box resized): the end it may have stopped at moved.
  }, [endRow, scale, virt, pad]);
  // The number column is as wide as the run's last row number needs, so "250" is not cut to
  // "2…", and the source column as its longest entry ("0@249", "initial") or its heading — both
  // fixed for the run: the columns do not jump as rows arrive.
  const digits = String(Math.max(1, rowsAt(table, view.n))).length;
  const srcChars = compact ? 0 : Math.max('src'.length, sourceChars(table));
  // The projector's narrow table (present.css) sizes its id and amount columns to them too.
  return (
    <div
      ref={scroll}
      style={{
        ['--digits' as string]: String(digits),
        ['--src-chars' as string]: String(srcChars),
        ['--id-chars' as string]: String(idChars(view, table)),
        ['--amount-chars' as string]: String(amountChars(table)),
        ...(wholeRows && {
          marginBottom: cut,
          // The header, a row and the borders (tables.css): at its min-height its view is whole.
          minHeight: head + scale * ROW_PX + 2,
        }),
      }}
      className="table-scroll"
      tabIndex={0}
      data-testid={testId}
      data-rows={count}
      role="table"
      aria-label={`${table.label}: ${formatCountOf(count, 'row')}`}
      aria-rowcount={count + 1}
    >
      <div className="vtable" style={{ height: virt.getTotalSize() + pad }}>
        <div className={`vrow head ${cols}`} role="row" style={{ height: head }}>
          <span role="columnheader">#</span>
          <span role="columnheader">id</span>
          <span role="columnheader" className="amount-head">
            <span className={wideOnly}>amount</span>
          </span>
          {!compact && (
            <span role="columnheader" title="source partition@offset" className="source-col">
              src
            </span>
          )}
          <span role="columnheader">note</span>
        </div>
        {virt.getVirtualItems().map((r) => {
          const k = r.index;
          const ident = rowIdentity(view, table, k);
          return (
            <TableRow
              key={r.key}
              view={view}
              table={table}
              k={k}
              top={r.start}
              height={r.size}
              cols={cols}
              compact={compact}
              wideOnly={wideOnly}
              amount={rowAmountAt(table, k, idx)}
              updates={rowUpdatesAt(table, k, idx)}
              selected={ident >= 0 && ident === selected}
              identity={ident}
              onSelect={a.select}
            />
          );
        })}
      </div>
      {count === 0 && (
        <p className="muted" style={{ margin: '0.4em' }}>
          no rows yet
        </p>
      )}
    </div>
  );
}

/**
 * One row. Memoised on primitives: while the table scrolls only the rows entering the window
 * render; those already in place (same top, amount, selection) are skipped.
 */
const TableRow = memo(function TableRow({
  view,
  table,
  k,
  top,
  height,
  cols,
  compact,
  wideOnly,
  amount,
  updates,
  selected,
  identity,
  onSelect,
}: {
  view: RunView;
  table: TableView;
  k: number;
  top: number;
  height: number;
  cols: string;
  compact: boolean;
  /** The class of words too wide for the projector's table (`visually-hidden` there). */
  wideOnly: string | undefined;
  amount: number;
  updates: number;
  selected: boolean;
  identity: number;
  onSelect: (identity: number) => void;
}) {
  const copy = table.copy[k]!;
  // A reader's own replay (re-read after a crash before its commit): its copy, not the pipeline's.
  const reread = table.reread[k] === 1;
  const id = rowId(view, table, k);
  const source = rowSource(table, k);
  return (
    <div
      role="row"
      aria-rowindex={k + 2}
      className={`vrow ${cols} clickable${copy > 1 && !reread ? ' dup' : ''}${selected ? ' selected' : ''}`}
      style={{ top, height }}
      data-testid={testIds.sinkRow}
      data-copy={copy}
      data-reread={reread ? 'true' : undefined}
      data-event={id}
      onClick={() => identity >= 0 && onSelect(identity)}
    >
      <span role="cell" className="muted">
        {k + 1}
      </span>
      <span role="cell" className="mono">
        {id}
      </span>
      <span role="cell">{formatMoney(amount)}</span>
      {!compact && (
        <span role="cell" className="muted mono source-col" title="source partition@offset">
          {source}
        </span>
      )}
      <span role="cell">
        {reread ? (
          <span
            className="muted"
            title="The reader read this record again from its last committed offset after a crash before its commit: its own replay, not the pipeline's"
          >
            ↺ re-read by the reader
          </span>
        ) : copy > 1 ? (
          // The projector's narrow table shows "×2" in place of "2nd" (present.css), which stays
          // for screen readers (`wideOnly`).
          <span
            className="fate duplicated"
            data-short={compact ? undefined : `×${copy}`}
            title={`The ${ordinal(copy)} copy of its id: a duplicate row`}
          >
            <Icon name="dup" />{' '}
            {compact ? `×${copy}` : <span className={wideOnly}>{ordinal(copy)}</span>}
            <span className="visually-hidden"> copy of its id</span>
          </span>
        ) : updates > 0 ? (
          // The note column of a sink beside four other stages is ~3 em wide at 1280 px: "↻
          // updated ×1" was cut to "↻ upd…". The words stay in the title and for screen readers.
          <span
            className="muted"
            title={`Updated in place ${updates === 1 ? 'once' : `${updates} times`} after its first write (an upsert on its key)`}
          >
            ↻ ×{updates}
            <span className="visually-hidden"> updated</span>
          </span>
        ) : (
          ''
        )}
      </span>
    </div>
  );
});
