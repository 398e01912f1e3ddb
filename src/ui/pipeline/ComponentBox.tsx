import { useEffect, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { selectParse, type LabState } from '../../store/labStore';
import { useActions, useLab, useLabInstance } from '../../store/LabContext';
import type { ComponentId } from '../../views/edit/faultActions';
import { validation } from '../../views/run/validationOnDemand';
import type { Life } from '../../views/run/at';
import { testIds } from '../testIds';
import { placeMenu } from './menuPlacement';
import { SPACE_TO_PAGE } from '../hooks/useShortcuts';
import { moveFocusInList } from '../hooks/moveFocusInList';

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
  titleHidden = false,
}: {
  id: ComponentId;
  title: ReactNode;
  /** The title for screen readers only: the stage's heading says it (condensed cards). */
  titleHidden?: boolean;
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
        <span className={titleHidden ? 'visually-hidden' : undefined}>{title}</span>
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
  // The store opens a menu once the validation is in (loaded then if need be: labStore openMenu).
  const filter = validation()?.faultMenu;
  const items = view && scenario && filter ? filter(view, scenario, id, t, idx, selected) : [];

  // The menu is fixed to the window, next to its component: the pipeline scrolls sideways in a
  // box that would clip it, and a long menu must stay inside the window without hiding the
  // component it belongs to — below it, else above, else beside it, scrolling when taller than
  // the window (placeMenu: at 150 % zoom a menu that fitted on neither side went over it).
  useLayoutEffect(() => {
    const place = () => {
      const menu = ref.current;
      const box = menu?.parentElement;
      if (!menu || !box) return;
      const scrolled = menu.scrollTop;
      menu.style.position = 'fixed';
      menu.style.right = 'auto';
      menu.style.bottom = 'auto';
      menu.style.top = '0px';
      menu.style.left = '0px';
      menu.style.overflowY = 'auto';
      const measure = (maxWidth: number | null) => {
        menu.style.maxWidth = maxWidth === null ? '' : `${maxWidth}px`;
        menu.style.maxHeight = 'none';
        return { width: menu.offsetWidth, height: menu.offsetHeight };
      };
      const p = placeMenu(
        box.getBoundingClientRect(),
        {
          width: document.documentElement.clientWidth,
          height: document.documentElement.clientHeight,
        },
        measure,
        parseFloat(getComputedStyle(menu).minWidth) || 0,
      );
      menu.style.maxWidth = p.maxWidth === null ? '' : `${p.maxWidth}px`;
      menu.style.maxHeight = `${p.maxHeight}px`;
      menu.style.top = `${p.top}px`;
      menu.style.left = `${p.left}px`;
      menu.dataset.side = p.side;
      menu.scrollTop = scrolled;
    };
    place();
    // Any scroll (the page, the pipeline's own box) or resize moves the component: follow it.
    // Not the menu's own scroll: nothing moved.
    const onScroll = (e: Event) => {
      if (e.target !== ref.current) place();
    };
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', onScroll, true);
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
    // WAI-ARIA menu pattern: Home / End move to the first / last item, not the timeline's cursor.
    if (moveFocusInList(e, list)) return;
    if (e.key === 'Escape') {
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
