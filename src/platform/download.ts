/**
 * Getting text out of the page: the clipboard, downloads, and file names for them.
 */

/**
 * Copy text to the clipboard. Uses the async Clipboard API; where it is refused (an insecure
 * context, a frame without the permission) falls back to a selected hidden textarea and the
 * `copy` command.
 * @returns whether the text was copied.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall through to the older way.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    // Deprecated but still the only synchronous fallback browsers offer.
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/**
 * A safe file-name stem from a scenario name: ASCII letters, digits and dashes only (a name is
 * user data and may hold `../`, `<script>` or 100 KB), at most 60 characters, never empty.
 */
export function fileStem(name: string | undefined, fallback = 'delivery-lab'): string {
  const stem = (name ?? '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return stem || fallback;
}

/**
 * Save a Blob as a file: an object URL on a temporary `<a download>`, clicked, then revoked.
 * @param filename - the suggested name (the browser may ask or rename).
 */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers; a moment later is safe.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Save text as a file (`type` e.g. `text/csv;charset=utf-8`). */
export function downloadText(text: string, filename: string, type: string): void {
  downloadBlob(new Blob([text], { type }), filename);
}
