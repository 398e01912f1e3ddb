/**
 * The results file (`--results <file.json>`): every session, its students and every answer, so a
 * server restarted with the same file loses no submitted answer, and the teacher keeps the class's
 * results. Written atomically (a temporary file in the same folder, then rename(2), which replaces
 * the target in one step on POSIX: https://nodejs.org/api/fs.html#fspromisesrenameoldpath-newpath),
 * so a crash mid-write leaves the previous file whole. A file that cannot be read is refused,
 * naming the field, and never overwritten.
 *
 * Version 2 added a session's `current` (the step open: an earlier one when a lesson went back
 * to a revealed step) and `endedAt` (the presenter's "End the room"). A version 1 file is read as
 * it was written: its current step the last one published, its sessions running. Version 3 added
 * a step's `solutions` (per student, the solution sent with a challenge's "solved"); a version 2
 * file is read as written (no solution sent), and each is written back as version 3.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import {
  describeIssue,
  RoomRevealSchema,
  RoomSolutionSchema,
  RoomStepSchema,
} from '../src/views/room/protocol';
import type { Session } from './sessions';

const SessionSchema = z.object({
  id: z.string().min(1),
  code: z.string().min(1),
  createdAt: z.number(),
  codeExpiresAt: z.number(),
  presenterTokenHash: z.string().regex(/^[0-9a-f]{64}$/),
  students: z.array(
    z.object({
      id: z.string().min(1),
      tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
      name: z.string(),
      joinedAt: z.number(),
    }),
  ),
  steps: z.array(
    z.object({
      step: RoomStepSchema,
      publishedAt: z.number(),
      answers: z.record(z.string(), z.string()),
      // A file written before answers closed at R: its revealed steps were closed.
      closed: z.boolean().optional(),
      closedAt: z.number().optional(),
      // Whom it was asked of, by student id (docs/classroom.md); absent in an older file.
      askedOf: z.array(z.string()).optional(),
      reveal: RoomRevealSchema.nullable(),
    }),
  ),
});

const SessionV2Schema = SessionSchema.extend({
  current: z.number().int().min(0).nullable(),
  endedAt: z.number().nullable(),
});

const SessionV3Schema = SessionV2Schema.extend({
  steps: z.array(
    SessionSchema.shape.steps.element.extend({
      // Per student id, the solution sent with a challenge's "solved" (docs/classroom.md).
      solutions: z.record(z.string(), RoomSolutionSchema).optional(),
    }),
  ),
});

/** The version this server writes. */
const VERSION = 3;

const ResultsSchema = z.discriminatedUnion('version', [
  z.object({ version: z.literal(1), sessions: z.array(SessionSchema) }),
  z.object({ version: z.literal(2), sessions: z.array(SessionV2Schema) }),
  z.object({ version: z.literal(VERSION), sessions: z.array(SessionV3Schema) }),
]);

/** The sessions a results file holds; [] when there is no file yet. Throws naming the field. */
export async function loadResults(file: string): Promise<Session[]> {
  if (!existsSync(file)) return [];
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not JSON (${String(error)}); it was left as it is`);
  }
  const parsed = ResultsSchema.safeParse(data);
  if (!parsed.success)
    throw new Error(
      `${file} is not a results file: ${describeIssue(parsed.error).message}; it was left as it is`,
    );
  return parsed.data.sessions.map((s) => ({
    current: s.steps.length > 0 ? s.steps.length - 1 : null,
    endedAt: null,
    ...s,
    steps: s.steps.map((r) => ({ ...r, closed: r.closed ?? r.reveal !== null })),
  }));
}

/**
 * A writer that keeps the file up to date with `snapshot()`. `save()` resolves once a write that
 * began after the call has finished, so an answer is acknowledged only once it is on disk; calls
 * made while a write is under way share the next write (200 answers at once are a few writes).
 */
export function createResultsWriter(file: string, snapshot: () => readonly Session[]) {
  let writing: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  let counter = 0;

  const writeOnce = async () => {
    const tmp = `${file}.${process.pid}.${++counter}.tmp`;
    const text = `${JSON.stringify({ version: VERSION, sessions: snapshot() }, null, 1)}\n`;
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, file);
  };

  const save = (): Promise<void> => {
    if (next) return next;
    if (!writing) {
      writing = writeOnce().finally(() => {
        writing = null;
      });
      return writing;
    }
    // A write is under way with an older snapshot: queue one more after it.
    next = writing
      .catch(() => undefined)
      .then(() => {
        next = null;
        return save();
      });
    return next;
  };
  return { save };
}
