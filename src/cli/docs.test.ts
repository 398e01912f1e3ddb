/**
 * docs/trace-format.md documents the trace file of src/views/io/export.ts. This test keeps it in
 * step with the engine: every entry kind has a row, every code is listed, the version matches.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_STEPS,
  ENTRY_KINDS,
  ERROR_CODES,
  MESSAGE_TYPES,
  SEND_CAUSES,
  SKIP_REASONS,
  TXN_STATES,
} from '../engine';
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from '../views/io/export';

const doc = readFileSync('docs/trace-format.md', 'utf8');

describe('docs/trace-format.md', () => {
  it('names the format and its version', () => {
    expect(doc).toContain(
      `# Trace file format (\`${TRACE_FORMAT}\`, version ${TRACE_FORMAT_VERSION})`,
    );
  });

  it('has one row per entry kind, in the engine order', () => {
    const start = doc.indexOf('### Kinds');
    const table = doc.slice(start, doc.indexOf('\n\n', doc.indexOf('| `', start)));
    const rows = [...table.matchAll(/^\| `([a-z-]+)` +\|/gm)].map((m) => m[1]);
    expect(rows.slice(1)).toEqual([...ENTRY_KINDS]); // the first row is the header
  });

  it('lists every code with its number', () => {
    const lists: [string, readonly string[]][] = [
      ['Message types', MESSAGE_TYPES],
      ['Send causes', SEND_CAUSES],
      ['Error codes', ERROR_CODES],
      ['Skip reasons', SKIP_REASONS],
      ['Transaction states', TXN_STATES],
      ['Checkpoint steps', CHECKPOINT_STEPS],
    ];
    for (const [title, names] of lists) {
      const line = doc.split('\n').find((l) => l.startsWith(`- ${title}`)) ?? '';
      // A list may wrap over several lines: take the paragraph.
      const start = doc.indexOf(line);
      const para = doc.slice(start, doc.indexOf('\n- ', start + 1));
      names.forEach((n, i) => expect(para, `${title}: ${n}`).toContain(`${i} \`${n}\``));
    }
  });
});
