/** The reader-replay scenario as a file holds it, for the views' and the page's tests of it. */
import type { ScenarioInput } from '../../engine';
import { readerCrashInput } from '../../engine/testing';

/** Flink exactly-once into `out`; reader rc (read_committed) crashes before its first commit. */
export const READER_CRASH: ScenarioInput = {
  version: 1,
  name: 'reader replay',
  ...readerCrashInput(),
};
