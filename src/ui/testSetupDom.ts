/**
 * The components' tests' setup (vite.config.ts, project 'dom'): testing-library's `findBy…` and
 * `waitFor` wait 10 s, not 1 s — the library dialog, the importer and the embed's height
 * reservation load or settle asynchronously, and on a loaded two-core machine 1 s was too little
 * (a full CI run failed the library dialog's first open).
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 10_000 });
