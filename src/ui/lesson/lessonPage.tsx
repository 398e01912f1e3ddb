/**
 * Start-up of the presenter view and its notes window (called by main.tsx, the composition root,
 * when the address has `?lesson=`): find the lesson (the library's, or the one a link carries),
 * create the lab and the deck at the step the address names, and keep the address, the notes
 * window and the deck in step.
 */
import type { ReactNode } from 'react';
import type { Issue } from '../../engine';
import { issueLines } from '../../views/io/export';
import { openLessonChannel } from '../../platform/lessonChannel';
import { lessonAddressOf, lessonOfAddress, writeLessonStep } from '../../platform/lessonUrl';
import { createArtifactClient, createRunClient } from '../../platform/runClient';
import { createLab } from '../../store/labStore';
import { createLessonDeck, stepOf } from '../../store/lessonDeck';
import { createNotices } from '../io/notices';
import { LessonApp } from './LessonApp';
import { LessonNotes } from './LessonNotes';
import { lessonTestIds } from './lessonTestIds';
import './lesson.css';
import { addressHash, addressQuery } from '../../platform/address';

/** The page for a `?lesson=` address, or null when the address names no lesson. */
export function lessonPage(): ReactNode | null {
  const address = lessonAddressOf(addressQuery());
  if (!address) return null;
  const found = lessonOfAddress(address, addressHash());
  if (!found.ok) return <LessonRefused issues={found.issues} />;
  const { lesson } = found;
  const index = Math.min(address.index, lesson.steps.length - 1);
  if (address.notes) return <LessonNotes lesson={lesson} start={index} />;
  const first = stepOf(lesson, index);
  const lab = createLab({
    runner: createRunClient(),
    initial: first.scenario,
    initialPresetRef: first.presetRef,
  });
  lab.actions.setPresent(true);
  const deck = createLessonDeck(lab, lesson, { index, revealed: address.revealed });
  const channel = openLessonChannel(lesson.id, (m) => {
    if (m.type === 'hello') announce();
    else if (m.type === 'go') deck.actions.goTo(m.index);
    else if (m.type === 'reveal') deck.actions.reveal();
  });
  const announce = () => {
    const { index: i, revealed } = deck.store.getState();
    writeLessonStep(i, revealed);
    channel.post({ type: 'step', index: i, revealed });
  };
  deck.store.subscribe(announce);
  announce();
  const page = { notices: createNotices(), artifacts: createArtifactClient(), shareLink: null };
  return <LessonApp lab={lab} page={page} deck={deck} />;
}

/** A lesson address that cannot be opened: what is wrong, field by field, and the way back. */
function LessonRefused({ issues }: { issues: Issue[] }) {
  return (
    <main className="lesson-notes" data-testid={lessonTestIds.refused}>
      <h1>This lesson cannot be opened</h1>
      <ul>
        {issueLines(issues, '(lesson)').map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p>
        <a href="./">Open Delivery Lab</a>
      </p>
    </main>
  );
}
