import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Atlas, FaultSpec } from '../../engine';
import { formatMs } from '../../views/run/format';
import type { HeatMap } from '../../views/atlas/heatMap';
import {
  cellLabel,
  cellTrials,
  columnLabel,
  moveInGrid,
  NOT_RUN_LOOK,
  OUTCOME_LOOK,
  type GridPos,
  rowLabel,
} from '../../views/atlas/heatCells';
import { atlasTestIds } from './atlasTestIds';

/** A cell's classes: with trials run, partly run (striped), not run yet (hatched) or empty. */
function cellClass(ran: boolean, waiting: number): string {
  if (ran) return waiting > 0 ? 'atlas-cell atlas-partial' : 'atlas-cell';
  return waiting > 0 ? 'atlas-cell atlas-not-run' : 'atlas-cell atlas-empty';
}

/** A cell's fill: a striped cell keeps its stripes (a `background` would reset them). */
function cellStyle(colour: string | undefined, waiting: number) {
  if (colour === undefined) return undefined;
  return waiting > 0 ? { backgroundColor: colour } : { background: colour };
}

/** Every how many columns a time is written above the grid (all are in each cell's name). */
const TICK_EVERY = 4;

/**
 * The heat map: a grid of components × time, one focus stop (arrow keys, Home/End move; Enter
 * moves into the cell's placements, Escape back). Hovering or focusing a cell lists its
 * placements below; each opens its run. While the atlas runs (`pending`), a cell none of whose
 * placements has run is "not run yet" (hatched, "?"), one with some still to run is striped.
 */
export function HeatMapGrid({
  atlas,
  map,
  pending,
  onOpen,
  onCompare,
}: {
  atlas: Atlas;
  map: HeatMap;
  /** While the atlas runs: trials not run yet per cell, by `row * columns + column`. */
  pending?: ReadonlyMap<number, number>;
  onOpen: (faults: FaultSpec[]) => void;
  /** Add the placement as a Compare lane beside the run. */
  onCompare: (faults: FaultSpec[]) => void;
}) {
  const byPos = useMemo(
    () => new Map(map.cells.map((c) => [c.row * map.columns.length + c.column, c])),
    [map],
  );
  const first = map.cells[0];
  // The first cell with placements run until the user picks one: a map that grows while the
  // atlas runs keeps the user's place, and the final map starts where it would alone.
  const [picked, setPos] = useState<GridPos | null>(null);
  const pos = picked ?? { row: first?.row ?? 0, column: first?.column ?? 0 };
  const [hover, setHover] = useState<GridPos | null>(null);
  const grid = useRef<HTMLTableElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const cols = map.columns.length;
  const shownPos = hover ?? pos;
  const shownCell = byPos.get(shownPos.row * cols + shownPos.column);
  const shownPending = pending?.get(shownPos.row * cols + shownPos.column) ?? 0;
  const trials = useMemo(() => (shownCell ? cellTrials(atlas, shownCell) : []), [atlas, shownCell]);

  const focusCell = (p: GridPos) => {
    setPos(p);
    setHover(null);
    grid.current
      ?.querySelector<HTMLElement>(`[data-row="${p.row}"][data-column="${p.column}"]`)
      ?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      list.current?.querySelector<HTMLElement>('button')?.focus();
      return;
    }
    const next = moveInGrid(pos, e.key, map.rows.length, cols, e.ctrlKey);
    if (!next) return;
    e.preventDefault();
    focusCell(next);
  };

  if (map.rows.length === 0) return null;
  return (
    <div className="atlas-map">
      <div className="atlas-scroll">
        <table
          className="atlas-grid"
          role="grid"
          aria-label="Heat map: components by time, each cell the worst outcome of its placements"
          data-testid={atlasTestIds.grid}
          ref={grid}
          onMouseLeave={() => setHover(null)}
        >
          <thead>
            <tr>
              <th scope="col" className="atlas-corner">
                component \ time
              </th>
              {map.columns.map((c, i) => (
                <th key={i} scope="col" className="atlas-tick">
                  <span aria-hidden="true">{i % TICK_EVERY === 0 ? formatMs(c.from) : ''}</span>
                  <span className="visually-hidden">{columnLabel(c)}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {map.rows.map((name, r) => (
              <tr key={name}>
                <th scope="row" className="atlas-row">
                  {rowLabel(name)}
                </th>
                {map.columns.map((_, c) => {
                  const cell = byPos.get(r * cols + c);
                  const waiting = pending?.get(r * cols + c) ?? 0;
                  const focused = pos.row === r && pos.column === c;
                  const look = cell ? OUTCOME_LOOK[cell.worst] : null;
                  return (
                    <td
                      key={c}
                      role="gridcell"
                      tabIndex={focused ? 0 : -1}
                      aria-label={cellLabel(map, cell, r, c, atlas.depth, waiting)}
                      aria-selected={focused}
                      data-testid={atlasTestIds.cell}
                      data-row={r}
                      data-column={c}
                      data-outcome={cell?.worst ?? (waiting > 0 ? 'not-run' : 'none')}
                      data-trials={cell?.trials.length ?? 0}
                      data-pending={pending ? waiting : undefined}
                      className={cellClass(cell !== undefined, waiting)}
                      style={cellStyle(look?.colour, waiting)}
                      onMouseEnter={() => setHover({ row: r, column: c })}
                      onFocus={() => setPos({ row: r, column: c })}
                      onClick={() => focusCell({ row: r, column: c })}
                      onKeyDown={onKey}
                    >
                      <span aria-hidden="true">
                        {look?.glyph ?? (waiting > 0 ? NOT_RUN_LOOK.glyph : '')}
                      </span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* Not a live region: the focused cell's name says its count and worst outcome, and each
          arrow key read this whole list out after it (every placement's two buttons). */}
      <div className="atlas-detail">
        <h3>
          {cellLabel(map, shownCell, shownPos.row, shownPos.column, atlas.depth, shownPending)}
        </h3>
        {trials.length > 0 && (
          <ul
            ref={list}
            className="atlas-trials"
            data-testid={atlasTestIds.cellTrials}
            onKeyDown={(e) => {
              if (e.key === 'Escape') focusCell(pos);
            }}
          >
            {trials.map((t) => (
              <li key={t.trial} data-outcome={t.outcome}>
                <span
                  className="atlas-swatch"
                  style={{ background: OUTCOME_LOOK[t.outcome].colour }}
                  aria-hidden="true"
                >
                  {OUTCOME_LOOK[t.outcome].glyph}
                </span>{' '}
                <button
                  type="button"
                  className="atlas-open"
                  data-testid={atlasTestIds.openTrial}
                  onClick={() => onOpen(t.faults)}
                >
                  Open: {t.label}
                </button>{' '}
                <button
                  type="button"
                  className="atlas-compare"
                  data-testid={atlasTestIds.compareTrial}
                  title="Run it as a Compare lane beside the run as it is"
                  // Named by its placement: a list of "Compare, Compare, Compare" said nothing.
                  aria-label={`Compare: ${t.label}`}
                  onClick={() => onCompare(t.faults)}
                >
                  Compare
                </button>{' '}
                <span className="muted atlas-result">— {t.result}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
