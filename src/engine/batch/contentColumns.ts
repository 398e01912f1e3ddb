/**
 * The content columns a dedupe key may be built from, as plain data: the batch schema
 * (./schema.ts) builds its enums from them, and the knob panels list them without building any
 * schema (issue 24: zod off the page's first path).
 */

/** The content columns a dedupe key may be built from (the event id is `id`). */
export const CONTENT_COLUMNS = ['date', 'hour', 'time', 'user', 'item', 'amount'] as const;

/**
 * The content columns a streaming event may carry (the workload's `events`): a streaming event
 * has no date partition, so its dedupe key is built from these only.
 */
export const EVENT_CONTENT_COLUMNS = ['time', 'user', 'item', 'amount'] as const;
