import { useState, type ChangeEvent, type KeyboardEvent } from 'react';
import type { NumberParse } from '../../views/edit/numberField';

/** What a field's typed text gives: the value, or why it is refused. */
export type DraftParse<T> = { ok: true; value: T } | { ok: false; problem: string };

/** A field's draft: what is typed, why it was refused, and the input's handlers. */
export interface NumberDraft {
  text: string;
  /** Why the typed text was refused (null: nothing refused). */
  problem: string | null;
  /** Spread on the `<input>`: value, aria-invalid, data-undo, onChange, onBlur (applies), onKeyDown. */
  input: {
    value: string;
    'aria-invalid': boolean;
    /**
     * 'page' while the field shows its applied value: Ctrl+Z there undoes the page's last edit
     * (the field follows), not the field's text — which left the field at the old value and the
     * scenario at the new one. With a draft typed, the browser's text undo applies.
     */
    'data-undo': 'page' | 'field';
    onChange(e: ChangeEvent<HTMLInputElement>): void;
    onBlur(): void;
    onKeyDown(e: KeyboardEvent<HTMLInputElement>): void;
  };
}

/**
 * A number typed as text so that it can be judged before it is applied — the seed, a knob, a
 * fault's time share this rule: Enter or leaving the field applies it when `judge` accepts it;
 * otherwise the reason stays beside the field and nothing changes. Escape puts `value` back (and
 * is kept from closing what the field sits in). When `value` or `revision` changes (an edit, undo,
 * a preset), the field shows the value again and forgets the draft.
 */
export function useNumberDraft(
  value: number,
  judge: (text: string) => NumberParse,
  commit: (v: number) => void,
  revision?: unknown,
): NumberDraft {
  return useTextDraft(value, judge, commit, revision);
}

/**
 * {@link useNumberDraft}'s rule for any value shown as text (the scenario's name): judged, then
 * applied on Enter or leaving the field; Escape puts it back.
 */
export function useTextDraft<T extends string | number>(
  value: T,
  judge: (text: string) => DraftParse<T>,
  commit: (v: T) => void,
  revision?: unknown,
): NumberDraft {
  const [text, setText] = useState(String(value));
  const [problem, setProblem] = useState<string | null>(null);
  const [shown, setShown] = useState({ value, revision });
  if (shown.value !== value || shown.revision !== revision) {
    setShown({ value, revision });
    setText(String(value));
    setProblem(null);
  }
  const apply = () => {
    const r = judge(text);
    if (!r.ok) {
      setProblem(r.problem);
      return;
    }
    setProblem(null);
    if (r.value !== value) commit(r.value);
    else setText(String(value));
  };
  return {
    text,
    problem,
    input: {
      value: text,
      'aria-invalid': problem !== null,
      'data-undo': text === String(value) && problem === null ? 'page' : 'field',
      onChange: (e) => {
        setText(e.target.value);
        if (problem !== null && judge(e.target.value).ok) setProblem(null);
      },
      onBlur: apply,
      onKeyDown: (e) => {
        if (e.key === 'Enter') apply();
        else if (e.key === 'Escape' && (problem !== null || text !== String(value))) {
          e.stopPropagation();
          setText(String(value));
          setProblem(null);
        }
      },
    },
  };
}
