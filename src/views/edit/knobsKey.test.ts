/**
 * The dedupe-key editor's rules: a select between the identifying columns and "content tuple",
 * the tuple's columns ticked one by one in the schema's order, never empty; and the same key typed
 * as text in a Compare lane. A content key is what ON CONFLICT (event_time, amount) names: "one or
 * more" columns (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT).
 */
import { describe, expect, it } from 'vitest';
import { EVENT_CONTENT_COLUMNS } from '../../engine';
import { laneKnobValue } from '../compare/lanes';
import { formatKnobValue, knobMeta } from './knobs';
import { CONTENT_TUPLE, keyForOption, parseKeyText, toggleColumn } from './knobsKey';

const COLS = EVENT_CONTENT_COLUMNS;
const IDS = ['business-id', 'uuid-per-attempt', 'source-offset'];

describe('the key editor', () => {
  it('an identifying column is itself; the content tuple starts at (time, amount) or keeps its own', () => {
    expect(keyForOption('source-offset', ['time'], COLS)).toBe('source-offset');
    expect(keyForOption(CONTENT_TUPLE, 'business-id', COLS)).toEqual(['time', 'amount']);
    expect(keyForOption(CONTENT_TUPLE, ['user', 'item'], COLS)).toEqual(['user', 'item']);
  });

  it('a column ticked goes in the schema’s order; the last one cannot go', () => {
    expect(toggleColumn(['amount'], 'time', true, COLS)).toEqual(['time', 'amount']);
    expect(toggleColumn(['time', 'amount'], 'user', true, COLS)).toEqual([
      'time',
      'user',
      'amount',
    ]);
    expect(toggleColumn(['time', 'amount'], 'time', false, COLS)).toEqual(['amount']);
    expect(toggleColumn(['amount'], 'amount', false, COLS)).toBeNull();
  });

  it('shown as the conflict target spells it', () => {
    expect(formatKnobValue(knobMeta('sink.key'), ['time', 'amount'])).toBe('(time, amount)');
    expect(formatKnobValue(knobMeta('sink.key'), 'business-id')).toBe('business-id');
  });
});

describe('the key typed in a Compare lane', () => {
  it('an option, or content columns with or without parentheses', () => {
    expect(parseKeyText('business-id', IDS, COLS)).toBe('business-id');
    expect(parseKeyText('(amount, time)', IDS, COLS)).toEqual(['time', 'amount']);
    expect(parseKeyText('user,item', IDS, COLS)).toEqual(['user', 'item']);
    expect(parseKeyText('time, colour', IDS, COLS)).toBeNull();
    expect(laneKnobValue('sink.key', 'time, amount')).toEqual({
      ok: true,
      value: ['time', 'amount'],
    });
    expect(laneKnobValue('sink.key', 'event_id')).toEqual({
      ok: false,
      reason:
        'key column: expected business-id, uuid-per-attempt, source-offset, or content columns (time, user, item, amount)',
    });
  });
});

describe("a lane's knob typed as text, refused naming the value it got", () => {
  it('a choice and a switch', () => {
    expect(laneKnobValue('sink.statement', 'upsert')).toEqual({
      ok: false,
      reason:
        'statement: expected insert, on-conflict-do-nothing, on-conflict-do-update or merge, got "upsert"',
    });
    expect(laneKnobValue('producer.enable.idempotence', 'maybe')).toEqual({
      ok: false,
      reason: 'enable.idempotence: expected true or false, got "maybe"',
    });
  });
});
