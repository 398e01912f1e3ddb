/**
 * The Kafka API name of a transaction-coordinator call, apart from the diagrams (mermaid.ts) so
 * the token layer names it without loading them: the embed's player draws no diagram (issue 31).
 */
import { TXN_API } from '../../engine';

/** The Kafka API name of a transaction-coordinator call (the trace's `count` column). */
export function txnApi(code: number): string {
  for (const [name, c] of Object.entries(TXN_API)) if (c === code) return name;
  return 'coordinator';
}
