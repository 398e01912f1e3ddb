import { describe, expect, it } from 'vitest';
import { labPresets, presets } from '../../scenarios';
import { normalizeAnswer, ROOM_LIMITS, RoomStepSchema } from './protocol';
import { presetRoomReveal, presetRoomStep } from './presetStep';

describe('a preset as the room asks it', () => {
  it('every preset gives a step the protocol accepts, and its right value is an answer to it', () => {
    for (const p of presets) {
      const step = presetRoomStep(p, 3);
      expect(RoomStepSchema.safeParse(step).success, p.id).toBe(true);
      const reveal = presetRoomReveal(p, 'at-least-once');
      expect(reveal.correct, p.id).toBeDefined();
      expect(normalizeAnswer(step.question, reveal.correct!).ok, p.id).toBe(true);
    }
  });

  // The setup goes to the phones (a teacher's trial: students saw the question with no word of
  // the crash it depends on), within one message of the protocol's bound.
  it('carries every preset’s setup, whole, in a publish message the server accepts', () => {
    for (const p of labPresets) {
      const step = presetRoomStep(p, 3);
      expect(step.setup, p.id).toBe(p.setup);
      const bytes = new TextEncoder().encode(JSON.stringify({ type: 'publish', step })).length;
      expect(bytes, p.id).toBeLessThanOrEqual(ROOM_LIMITS.messageBytes);
    }
  });

  it('keeps a choice question’s options, and asks a number question’s first number', () => {
    const choice = presets.find((p) => p.id === 'merge-duplicate-source')!;
    const q = presetRoomStep(choice, 0).question;
    // merge-duplicate-source asks a multiple choice (src/scenarios/library/sink.ts): its options, in order.
    expect(q.kind === 'choice' && q.options.map((o) => o.id)).toEqual(
      choice.predict.mark.kind === 'choice' && choice.predict.mark.options.map((o) => o.id),
    );
    const numbers = presets.find((p) => p.predict.mark.kind === 'numbers')!;
    expect(presetRoomStep(numbers, 0).question.kind).toBe('number');
  });

  it('reads a number as written, and refuses one that is not', () => {
    const q = { kind: 'number', text: 'How many rows?', unit: 'rows' } as const;
    expect(normalizeAnswer(q, ' 1,250 ')).toEqual({ ok: true, value: '1250' });
    expect(normalizeAnswer(q, '2.50')).toEqual({ ok: true, value: '2.5' });
    expect(normalizeAnswer(q, 'twelve').ok).toBe(false);
    expect(normalizeAnswer(q, '1e9').ok).toBe(false);
  });

  // A tester's students typed the unit printed beside the box ("18 payments"): refused, they
  // were stuck. The question's unit, singular or plural, is part of the number as written.
  it('reads a number with the question’s unit, and refuses another unit', () => {
    const rows = { kind: 'number', text: 'How many rows?', unit: 'rows' } as const;
    expect(normalizeAnswer(rows, '24 rows')).toEqual({ ok: true, value: '24' });
    expect(normalizeAnswer(rows, '1 Row')).toEqual({ ok: true, value: '1' });
    expect(normalizeAnswer(rows, '24rows')).toEqual({ ok: true, value: '24' });
    expect(normalizeAnswer(rows, '24 charges')).toEqual({
      ok: false,
      message: 'the answer is counted in rows: give a number',
    });
    expect(normalizeAnswer(rows, '24 rows and more').ok).toBe(false);
    const dollars = { kind: 'number', text: 'How much?', unit: '$' } as const;
    expect(normalizeAnswer(dollars, '$80')).toEqual({ ok: true, value: '80' });
    expect(normalizeAnswer(dollars, '$ 1,200')).toEqual({ ok: true, value: '1200' });
    expect(normalizeAnswer(dollars, '80 dollars')).toEqual({ ok: true, value: '80' });
    expect(normalizeAnswer(dollars, '2 charges').ok).toBe(false);
    const long = { kind: 'number', text: 'How many?', unit: 'payments at the reader' } as const;
    expect(normalizeAnswer(long, '18 payments')).toEqual({ ok: true, value: '18' });
  });
});
