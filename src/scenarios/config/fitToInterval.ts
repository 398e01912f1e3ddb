/**
 * The Flink workload timed to the imported checkpoint interval. The library's story
 * (flink-checkpoint-replay, docs/semantics/scenarios.md#s07-flink-checkpoint-replay) runs a job
 * started at 1 s with a checkpoint every second: checkpoint 1 takes e1..e200, and e201..e250
 * arrive at 5 s — four intervals after the start — when the crash is armed, to strike once 50
 * records follow a barrier. Under a longer interval (the usual 10 s or 30 s) no barrier comes
 * before 5 s, the crash never fires and the run tests nothing. So every time after the job's
 * start stretches by the ratio of the intervals: the same story, four of your intervals long,
 * and the report says so. A shorter interval keeps the library's times (its story holds).
 */
import type { ScenarioInput } from '../../engine';

/** The library story's own interval (src/scenarios/library/processor.ts, `flinkJob`). */
const STORY_INTERVAL_MS = 1000;

/** `scenario` with its times stretched to its interval, and a line saying so; null when it fits. */
export function fitFlinkWorkloadToInterval(
  scenario: ScenarioInput,
): { scenario: ScenarioInput; note: string } | null {
  const processor = scenario.processor;
  if (processor?.type !== 'flink') return null;
  const interval = processor['execution.checkpointing.interval'];
  if (typeof interval !== 'number' || interval <= STORY_INTERVAL_MS) return null;
  const start = processor.startAtMs ?? 0;
  const ratio = interval / STORY_INTERVAL_MS;
  const stretch = (t: number) => (t <= start ? t : start + (t - start) * ratio);
  const fitted = structuredClone(scenario);
  const events = fitted.workload.events;
  if (!Array.isArray(events)) return null;
  for (const e of events) if (typeof e.at === 'number') e.at = stretch(e.at);
  for (const f of fitted.faults ?? [])
    if ('at' in f && typeof f.at === 'number') f.at = stretch(f.at);
  const late = events.find((e) => typeof e.at === 'number' && e.at > start);
  const seconds = (ms: number) => `${ms / 1000} s`;
  return {
    scenario: fitted,
    note: `the workload's times after the job's start stretched ×${ratio} to your checkpoint interval (${seconds(interval)})${late?.at === undefined ? '' : `: the second burst and the crash at ${seconds(late.at)}, as the library's at 5 s with its 1 s interval`}`,
  };
}
