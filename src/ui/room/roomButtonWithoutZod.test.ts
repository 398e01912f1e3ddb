/**
 * The page's first render builds no room schema (issue 24: first verdict ≤ 500 ms): RoomButton
 * and what it imports statically evaluate with `zod` mocked to throw at its first use; the room
 * client (src/platform/roomClient.ts, which validates every server message and kept seat with
 * zod) is imported only when a room is started or a kept seat is read. Failed before: RoomButton
 * imported the client, whose protocol builds its schemas on import.
 */
import { afterEach, expect, it, vi } from 'vitest';

function zodThatThrows() {
  return new Proxy(
    {},
    {
      get(_, key) {
        if (key === 'then') return undefined;
        throw new Error(`zod.${String(key)} used while importing RoomButton`);
      },
    },
  );
}

afterEach(() => {
  vi.doUnmock('zod');
  vi.resetModules();
});

it(
  'RoomButton imports no zod',
  async () => {
    vi.resetModules();
    vi.doMock('zod', zodThatThrows);
    await expect(import('./RoomButton')).resolves.toHaveProperty('RoomButton');
  },
  // Transforming a fresh module graph takes seconds on a busy machine.
  60_000,
);
