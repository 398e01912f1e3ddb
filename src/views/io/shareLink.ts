/**
 * Share links: the scenario — with every fault added by clicks — in the URL's hash, versioned and
 * compressed, so opening the link replays the identical run (same `traceHash`).
 *
 * URL scheme: `#s=<version>.<payload>`, where for version 2 the payload is
 * `base64url(deflate(json) ‖ sha256(json)[0..4])`: the UTF-8 JSON of the scenario as written, raw
 * DEFLATE (RFC 1951, by fflate), then the first 4 bytes of the JSON's SHA-256, which a damaged
 * link fails (raw DEFLATE carries no checksum: a changed character could inflate to another
 * valid scenario and open silently); base64url without padding, RFC 4648 §5. Version 1, the same
 * without the checksum, still opens. The hash is never sent to a server, and other hash
 * parameters may sit beside `s` (`#s=1.…&t=1200`). The approach of mermaid-live-editor's
 * `src/lib/util/serde.ts`.
 *
 * The codec is ./shareCodec.ts (re-exported); this module adds the scenario's validation (zod,
 * off the lab's first load: issue 24). No `location` here: the page's URL handling is in
 * src/platform/share.ts, and the CLI reads a share link with it too (`sim -- '<link>' --check`).
 *
 * Decoding never throws and never touches the current workspace: it returns the scenario or the
 * issues (field paths, as for a file import); the caller decides. Old links keep opening: a
 * version's decoder yields that version's payload value, and stepwise migrations carry it to the
 * current version before the scenario itself is validated (and, through `parseScenario`, migrated
 * from older scenario versions).
 */
import type { Issue, Scenario, ScenarioInput } from '../../engine';
import { SHARE_CODEC, decodeShareValue, type ShareCodec } from './shareCodec';
import { importScenarioValue } from './scenarioImport';

export * from './shareCodec';

/** The result of {@link decodeShare}. */
export type ShareResult =
  | {
      ok: true;
      /** The validated scenario (defaults applied): run it. */
      scenario: Scenario;
      /** The scenario as the link carried it (after share migrations): keep it as the workspace. */
      input: ScenarioInput;
      /** The link's format version. */
      version: number;
    }
  | { ok: false; issues: Issue[] };

/**
 * Decode a share parameter (`1.<payload>`) or a whole hash (`#s=1.<payload>&…`) into a scenario.
 * Never throws. Issues: the link's own problems at path `''` (unknown version, damaged or
 * oversized payload), then the scenario's problems with their field paths. An issue at path `''`
 * (the link's, or the scenario's as a whole) names the link in its message (`share link: …`), so
 * {@link shareIssueLines} shows it as it is.
 * @param codec - the version table (tests pass one with a synthetic old version).
 */
export function decodeShare(value: string, codec: ShareCodec = SHARE_CODEC): ShareResult {
  const read = decodeShareValue(value, codec);
  if (!read.ok) return read;
  const parsed = importScenarioValue(read.value);
  if (!parsed.ok)
    return {
      ok: false,
      issues: parsed.issues.map((i) =>
        i.path === '' ? { path: '', message: `share link: ${i.message}` } : i,
      ),
    };
  return {
    ok: true,
    scenario: parsed.scenario,
    input: read.value as ScenarioInput,
    version: read.version,
  };
}
