import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { selectParse, type LabState } from '../../store/labStore';
import { useActions, useLab, useLabInstance } from '../../store/LabContext';
import { faultMenu, type ComponentId } from '../../views/faultActions';
import type { Life } from '../../views/at';
import { testIds } from '../testIds';

const selectMenu = (s: LabState) => s.menu;
const selectView = (s: LabState) => s.view;
const selectSelected = (s: LabState) => s.selected;

const LIFE: Record<Life, string> = { up: '● running', down: '✕ down', stalled: '❚❚ stalled' };

/**
 * A pipeline component: a heading button that opens its fault menu (click, or focus + Enter),
 * and its body. `anchor` names the trace actor whose messages fly to and from this box.
 */
export function ComponentBox({
  id,
  title,
  anchor,
  life,
  children,
  className = '',
}: {
  id: ComponentId;
  title: ReactNode;
  anchor?: string;
  life?: Life;
  children?: ReactNode;
  className?: string;
}) {
  const a = useActions();
  const open = useLab(selectMenu) === id;
  const head = useRef<HTMLButtonElement>(null);
  return (
    <div
      className={`component ${className}`}
      data-anchor={anchor}
      data-testid={testIds.component}
      data-component={id}
    >
      <button
        ref={head}
        type="button"
        className="component-head"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => a.openMenu(open ? null : id)}
      >
        <span>{title}</span>
        {life && <span className={`life ${life}`}>{LIFE[life]}</span>}
        <span className="hint" aria-hidden="true" title="faults">
          ⚡
        </span>
      </button>
      {open && <FaultMenu id={id} onClose={() => head.current?.focus()} />}
      {children}
    </div>
  );
}

/** The fault menu of a component at the cursor; each item schedules a fault at the current time. */
function FaultMenu({ id, onClose }: { id: ComponentId; onClose: () => void }) {
  const lab = useLabInstance();
  const a = lab.actions;
  const view = useLab(selectView);
  const parsed = useLab(selectParse);
  const selected = useLab(selectSelected);
  const ref = useRef<HTMLDivElement>(null);
  const { t, idx } = lab.cursor.getState();
  const scenario = parsed.ok ? parsed.scenario : view?.scenario;
  const items = view && scenario ? faultMenu(view, scenario, id, t, idx, selected) : [];

  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    // A press outside the menu (and outside its heading button, which toggles it) closes it.
    const onDown = (e: PointerEvent) => {
      const box = ref.current?.parentElement;
      if (box && !box.contains(e.target as Node)) a.openMenu(null);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [a]);

  const close = () => {
    a.openMenu(null);
    onClose();
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = list.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      e.stopPropagation();
      const next = (at + (e.key === 'ArrowDown' ? 1 : -1) + list.length) % list.length;
      list[next]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Tab') close();
  };
  return (
    <div
      ref={ref}
      className="menu"
      role="menu"
      aria-label={`Faults for ${id}`}
      data-testid={testIds.faultMenu}
      onKeyDown={onKey}
    >
      <div className="menu-title" aria-hidden="true">
        At the current time — becomes a fault on the timeline
      </div>
      {items.length === 0 && <div className="menu-title">No faults for this component.</div>}
      {items.map((item) => (
        <button
          key={item.id}
          type="button"
          role="menuitem"
          data-testid={testIds.faultMenuItem}
          data-action={item.id}
          onClick={() => {
            a.applyFaultAction(item);
            onClose();
          }}
        >
          {item.label}
          <small>{item.detail}</small>
        </button>
      ))}
    </div>
  );
}
