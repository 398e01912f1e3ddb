/**
 * The Flink job's and the Spark query's builders, one module: what a run of a Flink or Spark
 * scenario needs beyond the consumer loop's pipeline (./simulateUnexplained.ts holds no static
 * import of them). ../simulate.ts passes them to every run it makes; the page's runs
 * (src/views/run/runScenario.ts) import this module only for a scenario with such a processor,
 * so an embed of a consumer preset fetches none of Flink's and Spark's code (issue 31: ~12 kB gzip).
 */
import { buildFlink } from './flink';
import { buildSpark } from './spark';

export const processorJobs = { buildFlink, buildSpark };

/** What {@link processorJobs} holds: the builders a Flink or Spark run is assembled with. */
export type ProcessorJobs = typeof processorJobs;
