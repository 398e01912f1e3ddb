/**
 * Bring an element that just appeared into sight inside the box that scrolls it (its nearest
 * ancestor with `overflow-y: auto | scroll`), as little as needed, its top kept in sight when it
 * is taller than the box. Not `scrollIntoView`: that also scrolls the page and any ancestor whose
 * overflow is hidden (projector mode's `.app`), which would shift the whole layout.
 */
export function showInScrollBox(el: HTMLElement): void {
  let box = el.parentElement;
  while (box && !/^(auto|scroll)$/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
  if (!box) return;
  const r = el.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  // Below the box's bottom: up by the overflow, but never past the element's own top.
  if (r.bottom > b.bottom) box.scrollTop += Math.min(r.bottom - b.bottom, r.top - b.top);
  else if (r.top < b.top) box.scrollTop -= b.top - r.top;
}
