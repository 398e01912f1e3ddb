/**
 * An import's scenario and the knobs it set on it: each path once, in the order of its last
 * setting — the report's `settings`, which are the base workload plus these (docs/cli.md, "Your
 * configuration in"). The stream import and the batch import alike.
 */
import type { ScenarioInput } from '../../engine';
import { setKnob } from '../guarantees';

export class KnobRecorder {
  private readonly last = new Map<string, unknown>();

  constructor(public scenario: ScenarioInput) {}

  set(path: string, value: unknown): void {
    this.scenario = setKnob(this.scenario, path, value);
    this.last.delete(path);
    this.last.set(path, value);
  }

  has(path: string): boolean {
    return this.last.has(path);
  }

  get(path: string): unknown {
    return this.last.get(path);
  }

  paths(): IterableIterator<string> {
    return this.last.keys();
  }

  settings(): { path: string; value: unknown }[] {
    return [...this.last].map(([path, value]) => ({ path, value }));
  }
}
