/**
 * The Room button while its panel is hidden: the teacher hid the panel to show the story, and the
 * count of students who joined went with it (the button said the code only). The panel is
 * stubbed: it reports the students present as the real one does (`onStudents`).
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { roomSeats } from '../../platform/roomSeats';
import { RoomButton } from './RoomButton';
import { roomTestIds } from './roomTestIds';

/** What the stub panel was last given: its count to report, and its Hide. */
const panel: {
  report?: (n: number | null) => void;
  answered?: (a: { answered: number; of: number } | null) => void;
} = {};

vi.mock('./RoomPanel', () => ({
  RoomPanel: ({
    onStudents,
    onAnswered,
    onHide,
    hidden,
  }: {
    onStudents?: (n: number | null) => void;
    onAnswered?: (a: { answered: number; of: number } | null) => void;
    onHide: () => void;
    hidden?: boolean;
  }) => {
    panel.report = onStudents;
    panel.answered = onAnswered;
    return (
      <aside aria-label="Room" hidden={hidden}>
        <button type="button" onClick={onHide}>
          Hide
        </button>
      </aside>
    );
  },
}));

beforeEach(() => {
  roomSeats.setPresenter({
    sessionId: 'session-1',
    presenterToken: 'a-presenter-token-1',
    code: 'QX7K2M',
    joinUrl: 'http://192.168.1.20:8080/?join=QX7K2M',
  });
});
afterEach(() => {
  cleanup();
  roomSeats.setPresenter(null);
});

it('says how many students joined beside the code while the panel is hidden, in its name too', async () => {
  render(<RoomButton />);
  await screen.findByRole('button', { name: 'Hide' });
  act(() => panel.report?.(12));
  /** The button's accessible name, as a screen reader (and getByRole) computes it. */
  const named = (name: string) => screen.getByRole('button', { name });
  // The panel on screen says it itself: the button names the room only.
  expect(named('Room QX7K2M')).toBe(screen.getByTestId(roomTestIds.start));
  expect(screen.queryByTestId(roomTestIds.buttonCount)).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
  expect(named('Room QX7K2M, 12 students joined')).toBe(screen.getByTestId(roomTestIds.start));
  expect(screen.getByTestId(roomTestIds.buttonCount).textContent).toBe(' · 12 joined');
  // Live as phones join and leave; one is a student.
  act(() => panel.report?.(1));
  expect(named('Room QX7K2M, 1 student joined')).toBe(screen.getByTestId(roomTestIds.start));
  // Not known (the room gone): no number at all rather than a stale one.
  act(() => panel.report?.(null));
  expect(named('Room QX7K2M')).toBe(screen.getByTestId(roomTestIds.start));
});

it('says how many answered of whom while a question is open and the panel is hidden', async () => {
  render(<RoomButton />);
  await screen.findByRole('button', { name: 'Hide' });
  act(() => panel.report?.(12));
  act(() => panel.answered?.({ answered: 7, of: 12 }));
  const named = (name: string) => screen.getByRole('button', { name });
  // On screen, the panel says it itself.
  expect(screen.queryByTestId(roomTestIds.buttonCount)).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
  expect(named('Room QX7K2M, 7 of 12 students answered')).toBe(
    screen.getByTestId(roomTestIds.start),
  );
  expect(screen.getByTestId(roomTestIds.buttonCount).textContent).toBe(' · 7 of 12 answered');
  act(() => panel.answered?.({ answered: 12, of: 12 }));
  expect(screen.getByTestId(roomTestIds.buttonCount).textContent).toBe(' · 12 of 12 answered');
  // The answers closed (or revealed): who joined again.
  act(() => panel.answered?.(null));
  expect(named('Room QX7K2M, 12 students joined')).toBe(screen.getByTestId(roomTestIds.start));
});
