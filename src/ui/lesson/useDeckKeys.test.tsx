/**
 * The presenter's keys leave a focused control the keys it acts on, as the page's shortcuts do:
 * Space on a focused button (the room panel's Reveal, tabbed to) pressed it — before, the deck
 * took Space as "next step" and moved on with the step unrevealed — and the arrows on the speed
 * slider move it. PageDown and PageUp, a clicker's, step wherever the focus is.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDeckKeys, type DeckKeys } from './useDeckKeys';

afterEach(cleanup);

function Deck({ keys }: { keys: DeckKeys }) {
  useDeckKeys(keys);
  return (
    <div>
      <button type="button">Reveal</button>
      <input type="range" aria-label="Speed" />
      <p>a paragraph</p>
    </div>
  );
}

const deck = () => ({ next: vi.fn(), previous: vi.fn(), reveal: vi.fn(), toEnd: vi.fn() });

describe('useDeckKeys', () => {
  it('Space on a focused button is the button’s, not the next step', () => {
    const keys = deck();
    render(<Deck keys={keys} />);
    const button = screen.getByRole('button', { name: 'Reveal' });
    button.focus();
    const event = fireEvent.keyDown(button, { key: ' ' });
    expect(keys.next).not.toHaveBeenCalled();
    // Not prevented: the browser presses the button.
    expect(event).toBe(true);
    fireEvent.keyDown(button, { key: 'PageDown' });
    expect(keys.next).toHaveBeenCalledTimes(1);
  });

  it('the arrows and End on the speed slider are the slider’s', () => {
    const keys = deck();
    render(<Deck keys={keys} />);
    const slider = screen.getByRole('slider', { name: 'Speed' });
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    fireEvent.keyDown(slider, { key: 'End' });
    expect(keys.next).not.toHaveBeenCalled();
    expect(keys.previous).not.toHaveBeenCalled();
    expect(keys.toEnd).not.toHaveBeenCalled();
    fireEvent.keyDown(slider, { key: 'PageUp' });
    expect(keys.previous).toHaveBeenCalledTimes(1);
  });

  it('elsewhere Space and the arrows step, End goes to the run’s end', () => {
    const keys = deck();
    render(<Deck keys={keys} />);
    fireEvent.keyDown(document.body, { key: ' ' });
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    fireEvent.keyDown(document.body, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.body, { key: 'End' });
    expect(keys.next).toHaveBeenCalledTimes(2);
    expect(keys.previous).toHaveBeenCalledTimes(1);
    expect(keys.toEnd).toHaveBeenCalledTimes(1);
  });
});
