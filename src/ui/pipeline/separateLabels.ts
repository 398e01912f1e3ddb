/**
 * In-flight labels never overlap: a label that would cover one already placed moves down to the
 * first free lane (records sent together — a batch and its acks — otherwise sat on top of each
 * other, "ack e51" on "ack e52"). Pure geometry, tested without a browser.
 */

/** A label's box: left edge, top edge and width (every label has the same height). */
export interface LabelBox {
  x: number;
  y: number;
  w: number;
}

/**
 * Moves labels down, in order, until none overlaps a label before it; `gap` px kept between two
 * labels, across and down. Mutates and returns `boxes` (the caller's own array: no allocation per frame
 * beyond a scratch list).
 */
export function separateLabels<T extends LabelBox>(boxes: T[], height: number, gap = 1): T[] {
  const step = height + gap;
  for (let k = 1; k < boxes.length; k++) {
    const b = boxes[k]!;
    // Lowest free top at or below b.y: each pass moves past every box it still overlaps (a
    // move can only go down, so the loop ends after at most k moves).
    for (let moved = true; moved;) {
      moved = false;
      for (let q = 0; q < k; q++) {
        const o = boxes[q]!;
        if (o.x >= b.x + b.w + gap || b.x >= o.x + o.w + gap) continue;
        if (o.y >= b.y + step || b.y >= o.y + step) continue;
        b.y = o.y + step;
        moved = true;
      }
    }
  }
  return boxes;
}
