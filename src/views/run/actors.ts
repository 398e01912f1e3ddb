/**
 * Who is who in a run: each trace actor's role and the pipeline stage (column) it is drawn in.
 * Actor names are the engine's (`producer`, `broker-2`, `consumer-0`, `consumer-0-replacement`,
 * `flink`, `jobmanager`, `spark`, `sink`, `service`, `reader-0`, `coordinator`, `lab`).
 */

/** The role of an actor. */
export type ActorRole =
  | 'lab'
  | 'producer'
  | 'broker'
  | 'coordinator'
  | 'processor'
  | 'jobmanager'
  | 'sink'
  | 'service'
  | 'reader';

/** Pipeline stages, left to right as the data flows. */
export const STAGES = ['producer', 'broker', 'processor', 'sink', 'reader'] as const;
export type Stage = (typeof STAGES)[number];

/** The role of an actor from its name. */
export function roleOf(name: string): ActorRole {
  if (name === 'producer') return 'producer';
  if (name === 'coordinator') return 'coordinator';
  if (name.startsWith('broker-')) return 'broker';
  if (name.startsWith('consumer-') || name === 'flink' || name === 'spark') return 'processor';
  if (name === 'jobmanager') return 'jobmanager';
  if (name === 'sink') return 'sink';
  if (name === 'service') return 'service';
  if (name.startsWith('reader-')) return 'reader';
  return 'lab';
}

/** The stage an actor is drawn in, or null for the environment (`lab`). */
export function stageOf(name: string): Stage | null {
  switch (roleOf(name)) {
    case 'producer':
      return 'producer';
    case 'broker':
    case 'coordinator':
      return 'broker';
    case 'processor':
    case 'jobmanager':
      return 'processor';
    case 'sink':
    case 'service':
      return 'sink';
    case 'reader':
      return 'reader';
    case 'lab':
      return null;
  }
}

/**
 * The fault target a processor actor answers to: a replacement instance (`consumer-0-replacement`)
 * is still `consumer-0` for the scenario's faults.
 */
export function targetNameOf(actorName: string): string {
  return actorName.endsWith('-replacement')
    ? actorName.slice(0, -'-replacement'.length)
    : actorName;
}
