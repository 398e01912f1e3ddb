/**
 * Scenario import from a file, a paste or a drop, and the check of a decoded value (a share link's
 * payload, a saved workspace): validated by zod, apart from ./export.ts, whose Export menu the
 * lab's first screen draws while its first load holds no zod (issue 24).
 */
import { MAX_JSON_CHARS, parseScenario, parseScenarioJson, type ParseResult } from '../../engine';

/**
 * Validate an already-decoded value as a scenario (a share link's payload, a saved workspace):
 * migrated, schema and cross-field checks. Never throws; issues name the field path.
 */
export function importScenarioValue(value: unknown): ParseResult {
  return parseScenario(value);
}

/**
 * Validate imported text as a scenario (JSON, migrated, schema and cross-field checks) — the
 * engine's {@link parseScenarioJson}, which the CLI uses too, so both word a problem alike.
 * Never throws; issues name the field path (`producer.acks`, `faults.2.target`; '' = the file).
 */
export function importScenarioText(text: string): ParseResult {
  return parseScenarioJson(text);
}

/** The part of a `File` (or any Blob) that import needs. */
export interface ReadableFile {
  name?: string;
  size: number;
  text(): Promise<string>;
}

/**
 * Read and validate a scenario file (picker or drop). A file larger than the engine's JSON limit is
 * refused before it is read; a read error becomes an issue. Never rejects.
 */
export async function importScenarioFile(file: ReadableFile): Promise<ParseResult> {
  // A UTF-8 file has at least one byte per character: more bytes than 4 × the character limit
  // cannot fit, and refusing early spares reading a huge file into memory.
  if (file.size > MAX_JSON_CHARS * 4)
    return {
      ok: false,
      issues: [
        {
          path: '',
          message: `file too large: ${file.size} bytes (a scenario is at most ${MAX_JSON_CHARS} characters)`,
        },
      ],
    };
  let text: string;
  try {
    text = await file.text();
  } catch (e) {
    return {
      ok: false,
      issues: [{ path: '', message: `could not read ${file.name ?? 'the file'}: ${String(e)}` }],
    };
  }
  return importScenarioText(text);
}

/** The part of a `DataTransfer` (drop, paste event) that import needs. */
export interface TransferLike {
  files?: ArrayLike<ReadableFile>;
  getData(format: string): string;
}

/**
 * Validate what was dropped or pasted: the first file if there is one, else the plain text.
 * Never rejects.
 */
export async function importScenarioTransfer(data: TransferLike): Promise<ParseResult> {
  const file = data.files && data.files.length > 0 ? data.files[0] : undefined;
  if (file) return importScenarioFile(file);
  return importScenarioText(data.getData('text/plain') ?? '');
}
