import {
  useCallback,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type ReactNode,
} from 'react';
import { useDismiss } from './hooks/useDismiss';

/**
 * A button that shows a note under it — what a hover tooltip alone would hide from the keyboard,
 * from touch and from screen readers. The note is the button's description (`aria-describedby`,
 * read when it takes the focus, even while folded) and a disclosure (`aria-expanded`): Enter or a
 * click shows it, again hides it; Escape or a press elsewhere closes it and the focus stays on the
 * button (https://www.w3.org/WAI/ARIA/apg/patterns/disclosure/).
 */
export function NoteToggle({
  children,
  note,
  noteTestId,
  align = 'start',
  noteRef,
  ...button
}: {
  /** What the button shows. */
  children: ReactNode;
  /** What the note says. */
  note: ReactNode;
  noteTestId?: string;
  /** Which edge of the button the note lines up with (`end` for a control near the right edge). */
  align?: 'start' | 'end';
  /** The note's element id, for a field that wants it as its own description too. */
  noteRef?: string;
} & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'type' | 'onClick'>) {
  const [open, setOpen] = useState(false);
  const auto = useId();
  const id = noteRef ?? `${auto}-note`;
  const box = useRef<HTMLSpanElement>(null);
  const btn = useRef<HTMLButtonElement>(null);
  const noteEl = useRef<HTMLSpanElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, box, btn);
  // Opened near the window's edge (the badge at 150 % zoom), the note would run out of it:
  // shifted back inside, 6 px from the edge.
  useLayoutEffect(() => {
    const el = noteEl.current;
    if (!open || !el) return;
    el.style.transform = '';
    const r = el.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const shift = r.right > vw - 6 ? vw - 6 - r.right : r.left < 6 ? 6 - r.left : 0;
    if (shift !== 0)
      el.style.transform = `translateX(${Math.round(Math.max(shift, 6 - r.left))}px)`;
  }, [open]);
  return (
    <span className="note-toggle" ref={box}>
      <button
        {...button}
        ref={btn}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        aria-describedby={id}
        onClick={() => setOpen(!open)}
      >
        {children}
      </button>
      <span
        ref={noteEl}
        id={id}
        role="note"
        className={`toggle-note${align === 'end' ? ' align-end' : ''}`}
        hidden={!open}
        data-testid={noteTestId}
      >
        {note}
      </span>
    </span>
  );
}
