/** The processor stage's panels loaded on demand (./processorPanelsOnDemand.ts): Flink's, Spark's. */
/** @public rendered through the namespace ./processorPanelsOnDemand.ts loads */
export { FlinkPanel } from './FlinkPanel';
/** @public rendered through the namespace ./processorPanelsOnDemand.ts loads */
export { BatchList } from './BatchList';
