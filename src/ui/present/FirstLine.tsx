import { useEffect, useState } from 'react';
import { onFirstScreen, onHistoryMove } from '../../platform/address';
import type { LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import { useChallengeUi } from '../challenge/ChallengeContext';
import { firstStoryRef } from '../../views/library/libraryListing';
import { useLibraryUi } from '../library/LibraryContext';
import { testIds } from '../testIds';

/**
 * What the page is, in one line — said of the family on screen: a batch job (`scenario.batch`,
 * docs/semantics/batch.md) has no Kafka, it has attempts that crash and dates cleared and re-run.
 */
const TAGLINES = {
  stream:
    'Break a Kafka pipeline on purpose and see, event by event, which records are lost or applied twice — and why.',
  batch:
    'Break a scheduled batch job on purpose — a crashed attempt, a re-run — and see, row by row, which rows are lost or written twice — and why.',
} as const;

const selectFamily = (s: LabState) => (s.scenario.batch !== undefined ? 'batch' : 'stream');

/**
 * The first screen's line under the title: what this is, and where to start — "Start here" opens
 * the library's first story with its setup and question (unfolded, whatever was left folded).
 *
 * Once a story has been opened — from the page (this button or the library: `openedTick`) or by
 * the address (`?preset=`), as the page opened or as Back and Forward brought it — the line
 * gives way: the way on is the story's own question, the library (L) or a lesson (its presenter
 * view steps through stories in the order the teacher chose), and the line's height goes back to
 * the pipeline. Not a "Next story →": the library's order is no lesson plan, and a button in the
 * bar that skips to another story while the room predicts would skip the reveal.
 */
export function FirstLine() {
  const a = useActions();
  const ui = useLibraryUi();
  const family = useLab(selectFamily);
  // An address on `?preset=…` opened a story too (README: once a story is open it gives way): a
  // tester saw "Start here →" beside the story a link had opened, in both modes. Read as the page
  // opened and again after each Back or Forward (src/platform/address.ts): Back to the first
  // screen shows the line again, Forward to a story's entry takes it away.
  const opened = ui?.openedTick ?? 0;
  const [entry, setEntry] = useState(() => ({ first: onFirstScreen(), openedAt: 0 }));
  useEffect(
    () => onHistoryMove(() => setEntry({ first: onFirstScreen(), openedAt: opened })),
    [opened],
  );
  // A challenge is the task on screen (`?challenge=`, or one opened from the library): "Start
  // here" loaded another story under its panel, which then judged that pipeline against its start.
  const challenge = useChallengeUi()?.open ?? null;
  if (!entry.first || opened > entry.openedAt || challenge) return null;
  return (
    <p className="first-line" data-testid={testIds.tagline} data-family={family}>
      <span>{TAGLINES[family]}</span>{' '}
      <button
        type="button"
        className="start-here"
        data-testid={testIds.startHere}
        onClick={() => {
          a.loadPreset(firstStoryRef());
          ui?.setStoryHidden(false);
          ui?.markOpened();
        }}
      >
        Start here →
      </button>
    </p>
  );
}
