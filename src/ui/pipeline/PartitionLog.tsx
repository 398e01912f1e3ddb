import { memo, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { cellAt, partitionAt, type Cell, type CellStatus } from '../../views/run/at';
import { eventIdOf, type PartitionLogView, type RunView } from '../../views/run/runView';
import type { LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import type { RowLayout } from '../hooks/useAllRows';
import { useFontScale } from '../hooks/useFontScale';
import { useLaidOutStyle } from '../hooks/useLaidOutStyle';
import { testIds } from '../testIds';
import { ComponentBox } from './ComponentBox';
import { PLAIN_ROWS_MAX, Rows } from './Rows';
import { useFollowEnd, useWidth } from './useFollow';

const CELL_PX = 49; // a cell (3.6em of its 0.86em: 43 px) + 3px gap and some slack, at 100 % text size
const ROW_PX = 44;
/** The log's text size (px) that CELL_PX and ROW_PX are at: the page's 14 px (styles.css `.app`). */
const BASE_EM_PX = 14;

/** An element's font size, px (NaN if it has none). */
const fontSizePx = (s: CSSStyleDeclaration) => parseFloat(s.fontSize);
const selectPresent = (s: LabState) => s.present;

const STATUS_TEXT: Record<CellStatus, string> = {
  data: 'readable',
  'above-hw': 'above the high watermark: not on every in-sync replica yet',
  'open-txn': 'in an open transaction: read_committed readers wait',
  aborted: 'in an aborted transaction: read_committed readers skip it',
  'commit-marker': 'transaction commit marker',
  'abort-marker': 'transaction abort marker',
};

const STATUS_ICON: Record<CellStatus, string> = {
  data: '',
  'above-hw': '◌',
  'open-txn': '…',
  aborted: '⊘',
  'commit-marker': 'C✓',
  'abort-marker': 'A✕',
};

/**
 * A smaller font for a cell's text past four characters, so that a five-digit offset or an id
 * like e11467 fits the fixed-width cell on one line (it wrapped, and the id under it was cut off).
 * The full text stays in the cell's title and label.
 */
function fit(text: string, chars = 4): { fontSize: string } | undefined {
  return text.length <= chars
    ? undefined
    : { fontSize: `${Math.max(0.5, chars / text.length).toFixed(2)}em` };
}

const selectSelected = (s: LabState) => s.selected;

/** Group labels for committed-offset markers: the processor's group, or a reader's by name. */
function groupLabel(view: RunView, g: string): string {
  if (g === 'processor' || g === 'flink' || g === 'spark') return 'committed';
  const reader = /^reader-(\d+)$/.exec(g);
  const name = reader ? view.scenario.readers[Number(reader[1])]?.name : undefined;
  return `${name ?? g} committed`;
}

/**
 * One partition's log as offset cells, wrapped into rows: every row for a short log (≤
 * PLAIN_ROWS_MAX records at the run's end), else virtualized (a 100,000-record log renders only
 * the rows in view). The head reads LEO (log end offset), HW, LSO and the committed
 * offsets. Markers: HW (high watermark), LSO (last stable offset) and the consumer group's
 * committed offset, drawn on the cell at that offset (or on the empty "next" cell when the
 * marker is at the log end). Aborted and uncommitted records look different and
 * say so (icon + tooltip), not by colour alone.
 */
export const PartitionLog = memo(function PartitionLog({
  view,
  log,
  idx,
}: {
  view: RunView;
  log: PartitionLogView;
  idx: number;
}) {
  const a = useActions();
  const selected = useLab(selectSelected);
  const marks = useMemo(() => partitionAt(log, idx), [log, idx]);
  const scroll = useRef<HTMLDivElement>(null);
  const width = useWidth(scroll);
  // The cells are sized in em, the rows and their count in px: scaled by the log's own text size,
  // which A+ / A− and projector mode (18 px) both change — at 18 px the rows, estimated at 14,
  // overlapped and the last cell of each row was cut (1920×1080 screenshots, issue 24).
  const fontScale = useFontScale();
  const present = useLab(selectPresent);
  // Read once the log is laid out (../hooks/useLaidOutStyle.ts: not forcing the page's first
  // style recalculation inside the first render); until then the text scale's size.
  const emRead = useLaidOutStyle(scroll, fontSizePx, Object.is, NaN, [fontScale, present]);
  const emPx = emRead > 0 ? emRead : BASE_EM_PX * fontScale;
  const scale = emPx / BASE_EM_PX;
  const perRow = Math.max(1, Math.floor((width || 300) / (CELL_PX * scale)));
  const cells = marks.leo + 1; // + the "next offset" cell that carries end-of-log markers
  const rows = Math.ceil(cells / perRow);
  const committed = marks.commits.filter((c) => c.offset >= 0);
  const topic = view.topics[log.topic];
  return (
    <ComponentBox
      id={`partition:${topic}:${log.partition}`}
      title={
        <span>
          {log.name}
          <span
            className="muted partition-leader"
            data-offline={marks.leader > 0 ? undefined : true}
            style={{ fontWeight: 400 }}
          >
            {' '}
            · leader {marks.leader > 0 ? `broker-${marks.leader}` : 'none (offline)'}
          </span>
        </span>
      }
    >
      <div className="partition" data-testid={testIds.partitionLog} data-partition={log.name}>
        <div className="partition-head">
          <span title="Log end offset: the offset the next record appended to the leader will get">
            LEO <b>{marks.leo}</b>
          </span>
          <span title="High watermark: offsets below it are on every in-sync replica and readable">
            HW <b>{marks.hw}</b>
          </span>
          <span title="Last stable offset: read_committed readers stop here">
            LSO <b>{marks.lso}</b>
          </span>
          {committed.map((c) => (
            <span
              key={c.group}
              title={`Committed offset of ${c.group}: the next offset it will read after a restart`}
            >
              {groupLabel(view, c.group)} <b>{c.offset}</b>
            </span>
          ))}
        </div>
        <div
          ref={scroll}
          className="log-scroll"
          data-rows={rows}
          aria-label={`${log.name} log`}
          tabIndex={0}
          role="group"
        >
          <Rows
            plain={partitionAt(log, view.n).leo + 1 <= PLAIN_ROWS_MAX}
            count={rows}
            size={ROW_PX * scale}
            scroll={scroll}
            overscan={2}
          >
            {(virt) => (
              <LogRows
                virt={virt}
                rows={rows}
                scroll={scroll}
                render={(index) => {
                  const from = index * perRow;
                  const to = Math.min(cells, from + perRow);
                  return Array.from({ length: to - from }, (_, k) => {
                    const o = from + k;
                    const cell = o < marks.leo ? cellAt(view, log, o, idx, marks.hw) : null;
                    return (
                      <LogCell
                        key={o}
                        view={view}
                        offset={o}
                        cell={cell}
                        hw={marks.hw === o}
                        lso={marks.lso === o && marks.lso !== marks.hw}
                        committed={committed
                          .filter((c) => c.offset === o)
                          .map((c) => groupLabel(view, c.group))}
                        selected={cell !== null && cell.identity >= 0 && cell.identity === selected}
                        onSelect={a.select}
                      />
                    );
                  });
                }}
              />
            )}
          </Rows>
        </div>
      </div>
    </ComponentBox>
  );
});

/** The log's rows of cells, placed by `virt`; kept scrolled to the log's end while followed. */
function LogRows({
  virt,
  rows,
  scroll,
  render,
}: {
  virt: RowLayout;
  rows: number;
  scroll: RefObject<HTMLElement | null>;
  render: (row: number) => ReactNode;
}) {
  useFollowEnd(scroll, rows, () => virt.scrollToIndex(rows - 1, { align: 'end' }));
  return (
    <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
      {virt.getVirtualItems().map((r) => (
        <div
          key={r.key}
          className="log-row"
          style={{ position: 'absolute', top: r.start, left: 0, right: 0 }}
        >
          {render(r.index)}
        </div>
      ))}
    </div>
  );
}

function LogCell({
  view,
  offset,
  cell,
  hw,
  lso,
  committed,
  selected,
  onSelect,
}: {
  view: RunView;
  offset: number;
  cell: Cell | null;
  hw: boolean;
  lso: boolean;
  committed: string[];
  selected: boolean;
  onSelect: (identity: number) => void;
}) {
  const marks = (
    <span className="marks" aria-hidden="true">
      {hw && <span className="mark hw">HW</span>}
      {lso && <span className="mark lso">LSO</span>}
      {committed.length > 0 && <span className="mark committed">C</span>}
    </span>
  );
  // Past three characters an offset would run under the marks in the top right corner.
  const offChars = hw || lso || committed.length > 0 ? 3 : 4;
  const markText = [hw ? 'high watermark' : '', lso ? 'last stable offset' : '', ...committed]
    .filter(Boolean)
    .join(', ');
  if (!cell)
    return (
      <div
        className="cell ghost"
        title={`offset ${offset}: next to be written`}
        aria-label={`offset ${offset}, next to be written${markText ? `; ${markText} here` : ''}`}
      >
        {marks}
        <span className="off" style={fit(String(offset))}>
          {offset}
        </span>
        <span className="ev">·</span>
      </div>
    );
  const id =
    cell.identity >= 0
      ? eventIdOf(view.events, cell.identity)
      : cell.status === 'commit-marker'
        ? 'commit'
        : 'abort';
  const txn = cell.txn >= 0 ? `, transaction ${cell.txn}` : '';
  const label = `offset ${offset}: ${id}${txn}, ${STATUS_TEXT[cell.status]}${markText ? `; ${markText} here` : ''}`;
  return (
    <button
      type="button"
      className={`cell ${cell.status}${selected ? ' selected' : ''}`}
      data-testid={testIds.logCell}
      data-offset={offset}
      data-status={cell.status}
      data-event={cell.identity >= 0 ? id : undefined}
      aria-label={label}
      title={label}
      onClick={() => cell.identity >= 0 && onSelect(cell.identity)}
    >
      {marks}
      <span className="off" style={fit(`${offset} ${STATUS_ICON[cell.status]}`.trim(), offChars)}>
        {offset} {STATUS_ICON[cell.status]}
      </span>
      <span className="ev" style={fit(id.length > 0 && cell.identity >= 0 ? id : '')}>
        {cell.identity >= 0 ? id : STATUS_ICON[cell.status]}
      </span>
    </button>
  );
}
