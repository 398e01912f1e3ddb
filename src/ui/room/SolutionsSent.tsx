import { useEffect, useRef, useState } from 'react';
import type { ScenarioInput } from '../../engine';
import type { LessonChallenge } from '../../scenarios/lessons';
import type { LabState } from '../../store/labStore';
import { useLab, useLabInstance } from '../../store/LabContext';
import type { RoomSolution, RoomSolutions } from '../../views/room/protocol';
import { solutionLine } from '../../views/room/solutionLine';
import { roomTestIds } from './roomTestIds';

const selectScenario = (s: LabState) => s.scenario;

/**
 * The solutions the room sent for a challenge's round, on the presenter's panel: anonymous
 * ("Solution 1", "Solution 2", … — the projector shows no name: docs/classroom.md), each with
 * what it changed in a line, and **Open on the projector**: the solution made an attempt from the
 * challenge's start, judged as the challenge page judges one (its rules, its goal) and opened as
 * the current scenario — one undo step back to the lesson's — or, when it breaks the rules or
 * misses the goal, said so instead.
 */
export function SolutionsSent({
  of,
  solutions,
  onOpened,
}: {
  of: LessonChallenge;
  solutions: RoomSolutions;
  /** Told the scenario a solution opened as (the presenter view folds the step's band). */
  onOpened?: ((attempt: ScenarioInput) => void) | undefined;
}) {
  const lab = useLabInstance();
  // What the last press said, beside the solution it is about (in the list's own scrolling box:
  // the panel below it, Export and End the room, stays on the projector's screen).
  // An open solution's note holds the scenario it opened: said only while that is on screen (an
  // undo back to the step took it away, and "Solution 1 is open" stayed).
  const [said, setNote] = useState<{ n: number; text: string; opened?: ScenarioInput } | null>(
    null,
  );
  const onScreen = useLab(selectScenario);
  const note = said?.opened === undefined || said.opened === onScreen ? said : null;
  const shown = useRef<HTMLParagraphElement | null>(null);
  useEffect(() => {
    shown.current?.scrollIntoView({ block: 'nearest' });
  }, [note]);
  const open = async (solution: RoomSolution, n: number) => {
    // The engine, the library's presets and the judge load on the first press (a lazy chunk).
    const [{ startInput }, { judgeSolution }] = await Promise.all([
      import('../../scenarios/challenges'),
      import('../../views/challenge/solutionAttempt'),
    ]);
    const start = startInput(of.challenge);
    if (!start.ok)
      return setNote({ n, text: `Solution ${n} cannot open: the challenge has no start.` });
    const judged = judgeSolution(of.challenge, start.input, solution);
    if (!judged.ok)
      return setNote({ n, text: `Solution ${n} does not solve the challenge: ${judged.why}.` });
    lab.actions.loadScenario(judged.attempt, {
      presetRef: null,
      notice: `Solution ${n} of the room, on the challenge’s start: ${solutionLine(solution)}. Undo (Ctrl+Z) goes back to the step.`,
      // Undo says what it undid ("Undone: opened Solution 1 of the room"), not the notice's "Undo
      // (Ctrl+Z) goes back to the step" once it has. Anonymous, as the panel lists it.
      undoNote: `opened Solution ${n} of the room`,
    });
    onOpened?.(judged.attempt);
    setNote({ n, text: `Solution ${n} is open: play its run.`, opened: judged.attempt });
  };
  if (solutions.length === 0) return null;
  return (
    <section
      className="room-solutions"
      aria-labelledby="room-solutions-title"
      data-testid={roomTestIds.solutions}
    >
      <h3 id="room-solutions-title">Solutions sent</h3>
      <ol>
        {solutions.map(({ solution, students }, k) => (
          <li key={k} data-testid={roomTestIds.solution}>
            <span className="room-solution-name">Solution {k + 1}</span>
            {students > 1 ? ` (${students} students)` : ''}: <code>{solutionLine(solution)}</code>{' '}
            <button
              type="button"
              data-testid={roomTestIds.solutionOpen}
              aria-label={`Open solution ${k + 1} on the projector`}
              onClick={() => void open(solution, k + 1)}
            >
              Open on the projector
            </button>
            {note?.n === k + 1 && (
              <p className="room-solution-said" data-testid={roomTestIds.solutionNote} ref={shown}>
                {note.text}
              </p>
            )}
          </li>
        ))}
      </ol>
      {/* Said to a screen reader by a live region that is always there (one added with its text
          is not read out); a status, not an alert: the lesson's panel lays itself out anew
          around an alert (lessonRoom.css). */}
      <p className="visually-hidden" role="status">
        {note?.text ?? ''}
      </p>
    </section>
  );
}
