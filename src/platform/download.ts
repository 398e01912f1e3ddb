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

/** The longest stem {@link fileStem} writes (the export's suffix, ".scenario.json", comes after). */
const MAX_STEM = 60;

/**
 * Names Windows reserves for devices, whatever extension follows ("con.scenario.json" cannot be
 * saved there): https://learn.microsoft.com/en-us/windows/win32/fileio/naming-a-file
 */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/**
 * A safe file-name stem from a scenario name: ASCII letters, digits and dashes only (a name is
 * user data and may hold `../`, `<script>` or 100 KB), a valid name on Windows, macOS and Linux,
 * never empty. A long name is cut at the last word boundary within {@link MAX_STEM} characters —
 * not mid-word ("…-retried-idempotence-o"); a first word longer than that is cut where it must be.
 * Accents go, their letters stay ("crème" is "creme", not "cre-me").
 */
export function fileStem(name: string | undefined, fallback = 'delivery-lab'): string {
  const words = (name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const stem = words.length <= MAX_STEM ? words : cutAtWord(words, MAX_STEM);
  if (stem === '') return fallback;
  return WINDOWS_RESERVED.test(stem) ? `${fallback}-${stem}` : stem;
}

/** `words` (dash-separated) cut to at most `max` characters at a word's end where there is one. */
function cutAtWord(words: string, max: number): string {
  // The max-th character ends a word: its word is whole.
  if (words[max] === '-') return words.slice(0, max);
  const end = words.lastIndexOf('-', max);
  return end > 0 ? words.slice(0, end) : words.slice(0, max);
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
