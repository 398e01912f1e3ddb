import type { RefObject } from 'react';
import { useLaidOutStyle } from './useLaidOutStyle';

/**
 * The width of a text as an element draws it, for laying out labels before they are on the page
 * (the timeline's tick labels): measured with a canvas in the element's computed font, so it
 * follows the text size (A+ / A−) and the fonts the browser picked. Where there is no canvas
 * (jsdom) or no font known yet, an estimate: 0.62 em a character, about a digit's width in common
 * sans-serif fonts.
 */
let canvas: HTMLCanvasElement | null = null;

/** An element's font, as {@link textMeasurer} needs it. */
export interface MeasuredFont {
  /** The CSS `font` shorthand, e.g. `11.18px system-ui, sans-serif`. */
  css: string;
  /** Font size, CSS px. */
  sizePx: number;
}

/** A measurer of texts in `font`: text → width in CSS px. */
export function textMeasurer(font: MeasuredFont | null): (text: string) => number {
  let ctx: CanvasRenderingContext2D | null = null;
  if (font && typeof document !== 'undefined') {
    try {
      ctx = (canvas ??= document.createElement('canvas')).getContext('2d');
    } catch {
      ctx = null;
    }
  }
  if (ctx && font) {
    const c = ctx;
    return (text) => {
      c.font = font.css;
      return c.measureText(text).width;
    };
  }
  const size = font?.sizePx ?? 13;
  return (text) => text.length * size * 0.62;
}

/** The font a computed style draws in. */
function fontOf(s: CSSStyleDeclaration): MeasuredFont {
  const css = s.font || `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
  return { css, sizePx: parseFloat(s.fontSize) || 13 };
}

const sameFont = (a: MeasuredFont | null, b: MeasuredFont | null) =>
  a === b || (a !== null && b !== null && a.css === b.css && a.sizePx === b.sizePx);

/**
 * The font `ref`'s element draws in, read once it is laid out and after every layout change
 * `deps` name (its width, the text size): null before (./useLaidOutStyle.ts: not at mount, where
 * `getComputedStyle` forced the page's first style recalculation inside the first render).
 */
export function useElementFont(
  ref: RefObject<HTMLElement | null>,
  deps: readonly unknown[],
): MeasuredFont | null {
  return useLaidOutStyle<MeasuredFont | null>(ref, fontOf, sameFont, null, deps);
}
