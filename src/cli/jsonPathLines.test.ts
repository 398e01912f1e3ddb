/** The line of a validator's path in JSON text: nested objects, arrays, dotted keys, fallbacks. */
import { describe, expect, it } from 'vitest';
import { jsonPathLines, lineOfPath } from './jsonPathLines';

// Written by hand; the comment on each line is its number.
const TEXT = [
  '{', // 1
  '  "producer": { "acks": "two",', // 2
  '    "app": { "mode": "async" } },', // 3
  '  "processor": {', // 4
  '    "max.poll.records": -5', // 5
  '  },', // 6
  '  "faults": [', // 7
  '    { "what": "crash" },', // 8
  '    {', // 9
  '      "what": "crash",', // 10
  '      "target": "consumer-9"', // 11
  '    }', // 12
  '  ],', // 13
  '  "tags": ["a",', // 14
  '    "b"]', // 15
  '}', // 16
].join('\n');

describe('lineOfPath', () => {
  it('names each field its own line: nested keys, dotted keys, array items and their keys', () => {
    expect(lineOfPath(TEXT, 'producer')).toBe(2);
    expect(lineOfPath(TEXT, 'producer.acks')).toBe(2);
    expect(lineOfPath(TEXT, 'producer.app.mode')).toBe(3);
    expect(lineOfPath(TEXT, 'processor.max.poll.records')).toBe(5);
    expect(lineOfPath(TEXT, 'faults.0')).toBe(8);
    expect(lineOfPath(TEXT, 'faults.1')).toBe(9);
    expect(lineOfPath(TEXT, 'faults.1.target')).toBe(11);
    expect(lineOfPath(TEXT, 'tags.1')).toBe(15);
  });

  it('a missing field: its nearest enclosing field; the root and no JSON: line 1', () => {
    expect(lineOfPath(TEXT, 'faults.1.afterRecords')).toBe(9);
    expect(lineOfPath(TEXT, 'producer.app.get.timeout.ms')).toBe(3);
    expect(lineOfPath(TEXT, 'workload')).toBe(1);
    expect(lineOfPath(TEXT, '')).toBe(1);
    expect(jsonPathLines('{"a": [1, }').size).toBe(0);
    expect(lineOfPath('{"a":\n[1, }', 'a')).toBe(1);
  });

  it('a string that holds a key name or escapes does not move a field', () => {
    const text = '{"note": "\\"acks\\": {\\n",\n"acks": 1}';
    expect(lineOfPath(text, 'acks')).toBe(2);
  });
});
