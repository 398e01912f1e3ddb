/**
 * The scenario file an embed plays (`<delivery-lab-embed src="payments-lost-ack.json">`,
 * docs/embed.md "A scenario file beside the page"): the loader (public/embed.js) resolves `src`
 * against the page's URL, names it in the player's address (`?embed&file=payments-lost-ack.json`,
 * as written) and fetches it from the page's own origin — no CORS for a file beside the page,
 * whichever host serves the lab, and the lab's own Content-Security-Policy (`connect-src 'self'`)
 * is not in the way. The player asks its parent for it once it listens and reads only its
 * parent's answer (https://developer.mozilla.org/en-US/docs/Web/API/Window/postMessage), then
 * validates it (src/views/io/scenarioFileRead.ts): a bad file is refused with its field named,
 * and a file that could not be fetched plays nothing — never another scenario.
 */
import type { FileAnswer } from '../../views/io/scenarioFileRead';

/** The request (player → host) and the answer (host → player): `{ type, file, text | error }`. */
export const SCENARIO_FILE_MESSAGE = 'delivery-lab:scenario-file';

/** The query parameter the loader names the file in. */
const SCENARIO_FILE_PARAM = 'file';

/** How long the player waits for the loader's answer (a hand-written iframe has none). */
const ANSWER_WAIT_MS = 15_000;

/** The file an embed's address names (`?file=`), or null. */
export function scenarioFileParam(search: string): string | null {
  const file = new URLSearchParams(search).get(SCENARIO_FILE_PARAM);
  return file === null || file.trim() === '' ? null : file.trim().slice(0, 300);
}

/**
 * Ask the host page for `file` and wait for its answer (from the parent window only, for this
 * file). Never rejects: no parent, or no answer in time, is an error that says so.
 */
export function requestScenarioFile(
  file: string,
  host: Window = window.parent,
  wait = ANSWER_WAIT_MS,
): Promise<FileAnswer> {
  return new Promise((resolve) => {
    if (host === window)
      return resolve({
        error:
          'not in a page: a scenario file is read by the loader (embed.js) of the page that embeds the player',
      });
    const done = (answer: FileAnswer) => {
      clearTimeout(timer);
      window.removeEventListener('message', listen);
      resolve(answer);
    };
    const listen = (event: MessageEvent) => {
      if (event.source !== host) return;
      const m = event.data as { type?: unknown; file?: unknown; text?: unknown; error?: unknown };
      if (!m || m.type !== SCENARIO_FILE_MESSAGE || m.file !== file) return;
      if (typeof m.text === 'string') done({ text: m.text });
      else
        done({
          error: typeof m.error === 'string' ? m.error.slice(0, 300) : 'could not be fetched',
        });
    };
    const timer = setTimeout(
      () =>
        done({
          error: `the page did not send it in ${wait / 1000} s: a scenario file is read by the loader, embed.js (<delivery-lab-embed src="…">)`,
        }),
      wait,
    );
    window.addEventListener('message', listen);
    // Nothing private in it (the file's name is in the frame's own address): any origin.
    host.postMessage({ type: SCENARIO_FILE_MESSAGE, file }, '*');
  });
}
