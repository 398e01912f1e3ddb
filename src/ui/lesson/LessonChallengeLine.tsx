import { useState } from 'react';
import type { LessonChallenge } from '../../scenarios/lessons';
import { copyText } from '../../platform/download';
import { roomSeats } from '../../platform/roomSeats';
import { challengeAddress } from '../room/challengeAddress';
import { lessonTestIds } from './lessonTestIds';

/**
 * The projector's line for a step's challenge, once its answer shows: its title and where the
 * students open it. A shipped one's address is short enough to type (`?challenge=<id>`); the
 * lesson's own travels whole in its link (about 1 KB), so the presenter copies it into the
 * room's chat — and a room's phones get it with "Ask the challenge".
 */
export function LessonChallengeLine({ of }: { of: LessonChallenge }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const { challenge, carried } = of;
  // Beside the room's join address while a room is open: its host is the one the students reach
  // (`npm run classroom -- --host`: a LAN address), while the presenter's page is at the loopback
  // address the server printed; else beside this page's (docs/classroom.md, "The one command").
  const base = roomSeats.presenter()?.joinUrl ?? window.location.href;
  const url = new URL(challengeAddress(challenge.id, carried), base).href;
  return (
    <p className="lesson-challenge" data-testid={lessonTestIds.challengeLine}>
      Now on your laptops: <strong>{challenge.title}</strong>
      {carried === null ? (
        <>
          , at <code>{url}</code>.
        </>
      ) : (
        <>
          , at its link (a room&rsquo;s phones get it with Ask the challenge){' '}
          <button
            type="button"
            data-testid={lessonTestIds.challengeCopy}
            onClick={async () => setCopied(await copyText(url))}
          >
            Copy the link
          </button>{' '}
          <span role="status">
            {copied === true
              ? 'Copied: paste it in the room’s chat.'
              : copied === false
                ? 'The browser refused the clipboard: the notes window shows the link.'
                : ''}
          </span>
        </>
      )}
    </p>
  );
}
