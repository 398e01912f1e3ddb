/**
 * The classroom server for a spec's tests (docs/classroom.md): started before them on a free
 * loopback port (`port: 0`), serving the built dist/, and closed after them. Seven specs each
 * wrote out the same start and stop.
 */
import { resolve } from 'node:path';
import { test } from '@playwright/test';
import {
  startClassroomServer,
  type ClassroomOptions,
  type ClassroomServer,
} from '../../server/classroomServer';

/** The options every spec's server starts with; a spec's own server (a restart) adds to them. */
export const classroomOptions = (): ClassroomOptions => ({
  host: '127.0.0.1',
  port: 0,
  distDir: resolve('dist'),
});

/**
 * Registers the spec's beforeAll/afterAll and returns the server's address for its tests: `url`
 * read in a test (before beforeAll there is no server yet, and reading it says so).
 */
export function classroomServerForSpec(): { readonly url: string } {
  let server: ClassroomServer | undefined;
  test.beforeAll(async () => {
    server = await startClassroomServer(classroomOptions());
  });
  test.afterAll(async () => {
    await server?.close();
  });
  return {
    get url() {
      if (!server)
        throw new Error('the classroom server starts in beforeAll: read its url in a test');
      return server.url;
    },
  };
}
