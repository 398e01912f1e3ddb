/** The processor stage's panels loaded on demand (./processorPanelsOnDemand.ts): Flink's, Spark's. */
export { FlinkPanel } from './FlinkPanel';
export { BatchList } from './BatchList';
