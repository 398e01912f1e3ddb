import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { LabState } from '../store/labStore';
import { useLab, useLabInstance } from '../store/LabContext';
import { CompareButton } from './compare/CompareButton';
import { useDismiss } from './hooks/useDismiss';
import { moveFocusInList } from './hooks/moveFocusInList';
import { IoTools } from './io/IoTools';
import { RoomButton } from './room/RoomButton';
import { testIds } from './testIds';

const selectPresent = (s: LabState) => s.present;

/** The group's own buttons, in order: not those of a popover, menu or dialog one of them opened. */
function toolButtons(group: HTMLElement): HTMLButtonElement[] {
  return [...group.querySelectorAll<HTMLButtonElement>('button')].filter(
    (b) =>
      !b.disabled && !b.parentElement?.closest('.popover, [role="menu"], [role="dialog"], dialog'),
  );
}

/**
 * The status row's tools: Compare, Share, Embed, Export, Import and the room. In projector mode
 * they wait behind **More ▾** (issue 24: a teacher could not reach them without leaving the mode,
 * and beside the status line at 18 px they cut it): a pop-up list of the same buttons, opened on
 * its first, ↑ ↓ (and ← →, Home, End) moving between them, Escape or a press outside closing it,
 * the focus back on More. A tool's own pop-up (Share's link, Export's menu) opens inside it, and
 * its Escape closes that first. The room's panel is not in the list: it stays on screen, More
 * closed or not, and a room started from the list closes it.
 */
export function StatusTools({ onLive }: { onLive: (live: boolean) => void }) {
  const present = useLab(selectPresent);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const group = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const shown = present && open;
  // A room started from the list closes it, the focus back on More: the list stayed open over the
  // story's setup at 1280×720 until a press outside (its panel is on screen, not in the list).
  const wasLive = useRef(false);
  const onRoomLive = useCallback(
    (live: boolean) => {
      onLive(live);
      const started = live && !wasLive.current;
      wasLive.current = live;
      if (!started) return;
      if (button.current && group.current?.contains(document.activeElement))
        requestAnimationFrame(() => button.current?.focus());
      setOpen(false);
    },
    [onLive],
  );
  // Compare opened or closed from the list closes it too, the focus back on More: its lanes
  // replace the pipeline, and the list stayed open over the third lane's top at 1280×720.
  const lab = useLabInstance();
  useEffect(
    () =>
      lab.app.subscribe((s, prev) => {
        if ((s.compare === null) === (prev.compare === null)) return;
        if (group.current?.contains(document.activeElement)) button.current?.focus();
        setOpen(false);
      }),
    [lab],
  );
  useDismiss(shown, close, box, button, () => {
    // A tool's own pop-up takes Escape first (its useDismiss): the list stays open meanwhile.
    if (group.current?.querySelector('.popover-anchor > [aria-expanded="true"]')) setOpen(true);
    else button.current?.focus();
  });
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!shown || !group.current) return;
    const list = toolButtons(group.current);
    // Not a key typed in a tool's own pop-up (Share's link field): only on the tools themselves.
    if (!list.includes(e.target as HTMLButtonElement)) return;
    moveFocusInList(e, list, true);
  };
  return (
    <div className="status-tools-anchor" ref={box}>
      {present && (
        <button
          ref={button}
          type="button"
          className="more-tools"
          aria-expanded={open}
          aria-controls={id}
          data-testid={testIds.moreTools}
          onClick={() => {
            const opening = !open;
            setOpen(opening);
            if (opening)
              requestAnimationFrame(() => {
                if (group.current) toolButtons(group.current)[0]?.focus();
              });
          }}
          title="Compare, Share, Embed, Export, Import, Start a room"
        >
          More ▾
        </button>
      )}
      <div
        ref={group}
        id={id}
        className="status-tools"
        role="group"
        aria-label="Compare, files and room"
        data-open={present ? open : undefined}
        data-testid={testIds.statusTools}
        onKeyDown={onKey}
      >
        <CompareButton />
        <IoTools />
        <RoomButton onLive={onRoomLive} foldWhileWatching={present} />
      </div>
    </div>
  );
}
