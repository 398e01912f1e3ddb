import { useId, useLayoutEffect, useRef } from 'react';
import type { PresenterSeat } from '../../platform/roomClient';
import { BreakableUrl } from '../BreakableUrl';
import { QrCode } from './QrCode';
import { roomTestIds } from './roomTestIds';
import { isRoomKey, useRoomKey } from './useRoomKey';

/** The key that opens (and closes) the large view: Q, for the QR code. */
const JOIN_LARGE_KEY = 'q';

/**
 * The join code and the QR code large, for the back row of a room: the panel's QR code is ~85 px
 * and its code ~20 px on a projector (issue 24). A modal dialog over the whole screen: the QR
 * code at 68 % of the screen's height (490 px at 1280×720), the code at 10 % (≥ 64 px). Esc, Q or
 * Close closes it; the focus goes back where it was (the QR code's button after a click). While
 * it is open the page's keys (play, a lesson's PageDown) wait: the room is reading the code.
 */
export function JoinLarge({
  seat,
  students = null,
  onClose,
}: {
  seat: PresenterSeat;
  /** The students present, said under the QR code while the room joins (null: not shown). */
  students?: number | null;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useLayoutEffect(() => {
    const el = dialog.current;
    if (!el) return;
    const back = document.activeElement;
    el.showModal();
    return () => {
      if (el.open) el.close();
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="room-large"
      aria-labelledby={titleId}
      data-testid={roomTestIds.large}
      // Esc (the dialog's cancel, then close) or the form's Close.
      onClose={onClose}
      onKeyDown={(e) => {
        if (e.key === 'Escape') return;
        e.stopPropagation();
        if (isRoomKey(e, JOIN_LARGE_KEY)) {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <h2 id={titleId} className="room-large-join">
        Join at <BreakableUrl url={seat.joinUrl} /> with the code
      </h2>
      <p className="room-large-code" data-testid={roomTestIds.largeCode}>
        {seat.code}
      </p>
      <QrCode
        text={seat.joinUrl}
        width={1024}
        className="room-large-qr"
        testId={roomTestIds.largeQr}
      />
      {students !== null && (
        <p className="room-large-joined" data-testid={roomTestIds.largeJoined}>
          {students} {studentNoun(students)} joined
        </p>
      )}
      <form method="dialog">
        <button type="submit" className="room-large-close">
          Close (Esc)
        </button>
      </form>
    </dialog>
  );
}

/** "student" for 1, else "students": "1 student joined", "2 students joined". */
export function studentNoun(n: number): string {
  return n === 1 ? 'student' : 'students';
}

/** Q opens the large view wherever the page is, unless a field or another dialog has the key. */
export function useJoinLargeKey(setOpen: ((open: boolean) => void) | null): void {
  useRoomKey(JOIN_LARGE_KEY, setOpen && (() => setOpen(true)));
}
