import { useEffect, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { selectParse, type LabState } from '../../store/labStore';
import { useActions, useLab, useLabInstance } from '../../store/LabContext';
import { faultMenu, type ComponentId } from '../../views/faultActions';
import type { Life } from '../../views/at';
import { testIds } from '../testIds';
import { SPACE_TO_PAGE } from '../hooks/useShortcuts';

const selectMenu = (s: LabState) => s.menu;
const selectView = (s: LabState) => s.view;
const selectSelected = (s: LabState) => s.selected;

const LIFE: Record<Life, string> = {
  up: '● running',
  down: '✕ down',
  stalled: '❚❚ stalled',
  // A job waiting out its restart delay before it restores its state (Flink: RESTARTING).
  restarting: '↻ restarting',
};

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
  // The menu closed (Escape, an item chosen, Tab, or a click on this button): the focus comes
  // back to this button, which keeps it, but Space there plays and pauses as the page promises —
  // without the mark the browser would click the button and open the menu again. Enter still
  // opens it, and so does Space once the focus has left and come back (a Tab to it).
  const focusHead = () => {
    const el = head.current;
    if (!el) return;
    el.dataset.space = SPACE_TO_PAGE;
    el.focus();
  };
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
        onClick={() => {
          a.openMenu(open ? null : id);
          if (open) focusHead();
        }}
        onBlur={(e) => delete e.currentTarget.dataset.space}
      >
        <span>{title}</span>
        {life && <span className={`life ${life}`}>{LIFE[life]}</span>}
        <span className="hint" aria-hidden="true" title="faults">
          ⚡
        </span>
      </button>
      {open && <FaultMenu id={id} onClose={focusHead} />}
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

  // The menu is fixed to the window, next to its component: the pipeline scrolls sideways in a
  // box that would clip it, and a long menu must stay inside the window (it flips above the
  // component when it fits only there, covers it when it fits on neither side, and scrolls when
  // it is taller than the window).
  useLayoutEffect(() => {
    const place = () => {
      const menu = ref.current;
      const box = menu?.parentElement;
      if (!menu || !box) return;
      const r = box.getBoundingClientRect();
      const vw = document.documentElement.clientWidth;
      const vh = document.documentElement.clientHeight;
      const margin = 6;
      const below = vh - r.bottom - margin;
      const above = r.top - margin;
      menu.style.position = 'fixed';
      menu.style.right = 'auto';
      menu.style.bottom = 'auto';
      // Its whole height when the window has it: below the component, else above it, else
      // (a big text size on a small screen showed 2 of 8 items) over it, from the window's top.
      menu.style.maxHeight = `${Math.max(120, vh - 2 * margin)}px`;
      menu.style.overflowY = 'auto';
      const h = menu.offsetHeight;
      const w = menu.offsetWidth;
      const top = h <= below ? r.bottom : h <= above ? r.top - h : margin;
      const left = Math.min(Math.max(margin, r.left), Math.max(margin, vw - w - margin));
      menu.style.top = `${top}px`;
      menu.style.left = `${left}px`;
    };
    place();
    // Any scroll (the page, the pipeline's own box) or resize moves the component: follow it.
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, []);

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
