/**
 * Terminal control characters (C0 but newline and tab, DEL, C1) written as `\xNN`: a scenario's
 * names and ids are data from anywhere, and a raw ESC in a text report could clear or recolour the
 * reader's terminal. (JSON escapes them itself; the mermaid and Markdown outputs have their own.)
 * A file of its own so the CLI's entry (bin.ts) writes its errors without loading the reports.
 */
export function visibleControls(s: string): string {
  return s.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
