import { cleanup, fireEvent, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Lab } from '../../store/labStore';
import { editsText, ownsArrows, ownsHomeEnd, ownsSpace, useShortcuts } from './useShortcuts';

function el(html: string): HTMLElement {
  const box = document.createElement('div');
  box.innerHTML = html;
  document.body.append(box);
  return box.firstElementChild as HTMLElement;
}

function fakeLab() {
  const actions = {
    togglePlay: vi.fn(),
    step: vi.fn(),
    jump: vi.fn(),
    restart: vi.fn(),
    toEnd: vi.fn(),
    undo: vi.fn(),
    redo: vi.fn(),
    openMenu: vi.fn(),
  };
  renderHook(() => useShortcuts({ actions } as unknown as Lab));
  return actions;
}

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

describe('which element keeps a key', () => {
  it('Space: fields, selects, checkboxes, buttons and button-like roles keep it; sliders do not', () => {
    expect(ownsSpace(el('<input type="text">'))).toBe(true);
    expect(ownsSpace(el('<input type="number">'))).toBe(true);
    expect(ownsSpace(el('<textarea></textarea>'))).toBe(true);
    expect(ownsSpace(el('<select></select>'))).toBe(true);
    expect(ownsSpace(el('<input type="checkbox">'))).toBe(true);
    expect(ownsSpace(el('<input type="radio">'))).toBe(true);
    // A checked radio does nothing with Space: the page's Space plays.
    expect(ownsSpace(el('<input type="radio" checked>'))).toBe(false);
    expect(ownsSpace(el('<div role="radio" aria-checked="true"></div>'))).toBe(false);
    expect(ownsSpace(el('<div role="radio" aria-checked="false"></div>'))).toBe(true);
    expect(ownsSpace(el('<button>x</button>'))).toBe(true);
    expect(ownsSpace(el('<summary>x</summary>'))).toBe(true);
    expect(ownsSpace(el('<div role="menuitem"></div>'))).toBe(true);
    expect(ownsSpace(el('<input type="range">'))).toBe(false);
    expect(ownsSpace(el('<div role="slider" tabindex="0"></div>'))).toBe(false);
    expect(ownsSpace(el('<div tabindex="0"></div>'))).toBe(false);
    expect(ownsSpace(document.body)).toBe(false);
    // A menu's button the focus came back to when its menu closed gives Space to the page.
    expect(ownsSpace(el('<button data-space="page">x</button>'))).toBe(false);
    expect(ownsSpace(el('<button data-space="other">x</button>'))).toBe(true);
  });

  it('arrows: fields, selects, sliders, radios, menus and tabs keep them; buttons and checkboxes do not', () => {
    expect(ownsArrows(el('<input type="text">'))).toBe(true);
    expect(ownsArrows(el('<input type="range">'))).toBe(true);
    expect(ownsArrows(el('<input type="radio">'))).toBe(true);
    expect(ownsArrows(el('<select></select>'))).toBe(true);
    expect(ownsArrows(el('<div role="slider"></div>'))).toBe(true);
    expect(ownsArrows(el('<div role="tab"></div>'))).toBe(true);
    expect(ownsArrows(el('<button>x</button>'))).toBe(false);
    expect(ownsArrows(el('<input type="checkbox">'))).toBe(false);
    expect(ownsArrows(document.body)).toBe(false);
  });

  it('Home/End: fields, selects and sliders keep them; a native radio, a button, a checkbox do not', () => {
    expect(ownsHomeEnd(el('<input type="text">'))).toBe(true);
    expect(ownsHomeEnd(el('<input type="range">'))).toBe(true);
    expect(ownsHomeEnd(el('<select></select>'))).toBe(true);
    expect(ownsHomeEnd(el('<div role="slider"></div>'))).toBe(true);
    expect(ownsHomeEnd(el('<input type="radio">'))).toBe(false);
    expect(ownsHomeEnd(el('<button>x</button>'))).toBe(false);
    expect(ownsHomeEnd(el('<input type="checkbox">'))).toBe(false);
  });

  it('only text fields keep Ctrl+Z', () => {
    expect(editsText(el('<input type="number">'))).toBe(true);
    expect(editsText(el('<textarea></textarea>'))).toBe(true);
    expect(editsText(el('<input type="range">'))).toBe(false);
    expect(editsText(el('<div role="slider"></div>'))).toBe(false);
  });
});

describe('useShortcuts', () => {
  it('Space toggles play from the page and from a slider, once per press (not on repeat)', () => {
    const a = fakeLab();
    fireEvent.keyDown(document.body, { key: ' ' });
    fireEvent.keyDown(el('<div role="slider" tabindex="0"></div>'), { key: ' ' });
    fireEvent.keyDown(el('<input type="range">'), { key: ' ' });
    fireEvent.keyDown(document.body, { key: ' ', repeat: true });
    expect(a.togglePlay).toHaveBeenCalledTimes(3);
  });

  it('Space on a button, a field or inside a dialog does not toggle play', () => {
    const a = fakeLab();
    fireEvent.keyDown(el('<button>x</button>'), { key: ' ' });
    fireEvent.keyDown(el('<input type="text">'), { key: ' ' });
    fireEvent.keyDown(el('<textarea></textarea>'), { key: ' ' });
    const inDialog = el('<dialog open><p tabindex="0">x</p></dialog>').querySelector('p')!;
    fireEvent.keyDown(inDialog, { key: ' ' });
    expect(a.togglePlay).not.toHaveBeenCalled();
  });

  it('Space on a button marked data-space="page" toggles play and keeps the browser from clicking it', () => {
    const a = fakeLab();
    const b = el('<button data-space="page">x</button>');
    let clicks = 0;
    b.addEventListener('click', () => clicks++);
    const notPrevented = fireEvent.keyDown(b, { key: ' ' });
    expect(notPrevented).toBe(false);
    expect(a.togglePlay).toHaveBeenCalledTimes(1);
    expect(clicks).toBe(0);
  });

  it('Shift+arrows step one engine event from the page and from a button, not from a slider', () => {
    const a = fakeLab();
    fireEvent.keyDown(document.body, { key: 'ArrowRight', shiftKey: true });
    fireEvent.keyDown(el('<button>x</button>'), { key: 'ArrowLeft', shiftKey: true });
    fireEvent.keyDown(el('<input type="range">'), { key: 'ArrowRight', shiftKey: true });
    expect(a.step.mock.calls).toEqual([[1], [-1]]);
    expect(a.jump).not.toHaveBeenCalled();
  });

  it('plain arrows jump to the next / previous moment, not from a slider', () => {
    const a = fakeLab();
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    fireEvent.keyDown(el('<button>x</button>'), { key: 'ArrowLeft' });
    fireEvent.keyDown(el('<input type="range">'), { key: 'ArrowRight' });
    expect(a.jump.mock.calls).toEqual([[1], [-1]]);
    expect(a.step).not.toHaveBeenCalled();
  });

  it('Home restarts and End goes to the end from the page and a button, not from a slider or a field', () => {
    const a = fakeLab();
    fireEvent.keyDown(document.body, { key: 'Home' });
    fireEvent.keyDown(document.body, { key: 'End' });
    fireEvent.keyDown(el('<input type="range">'), { key: 'End' });
    fireEvent.keyDown(el('<input type="text">'), { key: 'Home' });
    fireEvent.keyDown(el('<button>x</button>'), { key: 'End' });
    expect(a.restart).toHaveBeenCalledTimes(1);
    expect(a.toEnd).toHaveBeenCalledTimes(2);
  });

  it('Ctrl+Z undoes from the timeline but stays with a text field', () => {
    const a = fakeLab();
    fireEvent.keyDown(el('<div role="slider" tabindex="0"></div>'), { key: 'z', ctrlKey: true });
    fireEvent.keyDown(el('<input type="text">'), { key: 'z', ctrlKey: true });
    expect(a.undo).toHaveBeenCalledTimes(1);
  });

  it('a field showing its applied value (data-undo="page") leaves Ctrl+Z and Ctrl+Y to the page', () => {
    const a = fakeLab();
    const clean = el('<input type="text" data-undo="page">');
    const z = fireEvent.keyDown(clean, { key: 'z', ctrlKey: true });
    fireEvent.keyDown(clean, { key: 'y', ctrlKey: true });
    // With a draft typed, the browser's text undo keeps it.
    fireEvent.keyDown(el('<input type="text" data-undo="field">'), { key: 'z', ctrlKey: true });
    expect(a.undo).toHaveBeenCalledTimes(1);
    expect(a.redo).toHaveBeenCalledTimes(1);
    // preventDefault: the field's own undo does not also run.
    expect(z).toBe(false);
  });
});
