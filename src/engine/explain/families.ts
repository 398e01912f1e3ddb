/**
 * Every family of stories, under the name the others reach it by (`this.ctx.flink`). A new
 * family is one file extending {@link StoryFamily} and one line here.
 */
import { CommitStories } from './commits';
import { ConsumerStories } from './consumer';
import { DuplicatedStories } from './duplicated';
import { FlinkStories } from './flink';
import { LostStories } from './lost';
import { SinkStories } from './sinks';
import { SparkStories } from './spark';
import { StreamDedupeStories } from './streamDedupe';
import { TransactionStories } from './transactions';

export const FAMILIES = {
  duplicated: DuplicatedStories,
  lost: LostStories,
  consumer: ConsumerStories,
  commits: CommitStories,
  sinks: SinkStories,
  flink: FlinkStories,
  spark: SparkStories,
  streamDedupe: StreamDedupeStories,
  transactions: TransactionStories,
} as const;

export type Families = {
  readonly [K in keyof typeof FAMILIES]: InstanceType<(typeof FAMILIES)[K]>;
};
