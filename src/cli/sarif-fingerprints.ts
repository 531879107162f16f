/**
 * SARIF `partialFingerprints` for `check --format sarif`: code scanning uses them to match a
 * result with the same result of an earlier run, so an alert stays one alert (not closed and
 * reopened) when unrelated lines above it move it down.
 *
 * The fingerprint never uses line or column numbers. It is a hash of the rule id, the file (as
 * its workspace-relative URI), the trimmed text of the result's first line, and the occurrence
 * index: how many earlier results of the same file had the same rule and the same line text
 * (two identical lines with the same error stay two alerts). When the file cannot be read, the
 * message stands in for the line text. Key and value: `dshLspActions/lineContent/v1` →
 * `<32 hex digits>:<occurrence>` (the `:n` suffix as in GitHub's own `primaryLocationLineHash`).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The `partialFingerprints` key written. */
export const FINGERPRINT_KEY = 'dshLspActions/lineContent/v1';

/** Reads a file's text; `undefined` when it cannot be read. */
export type TextReader = (path: string) => string | undefined;

/**
 * @returns a reader of files from disk, each read once
 */
export function cachedDiskReader(): TextReader {
  const cache = new Map<string, string | undefined>();
  return (path) => {
    if (!cache.has(path)) {
      let text: string | undefined;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        text = undefined;
      }
      cache.set(path, text);
    }
    return cache.get(path);
  };
}

/** Computes the fingerprints of one run's results, in the order they are emitted. */
export class Fingerprinter {
  private readonly seen = new Map<string, number>();
  private readonly lines = new Map<string, string[] | undefined>();
  private readonly read: TextReader;

  /** @param read where file texts come from */
  constructor(read: TextReader) {
    this.read = read;
  }

  /**
   * @param ruleId the result's rule id
   * @param path absolute file path (read for the line text)
   * @param uri the file as the SARIF names it (workspace-relative URI)
   * @param line zero-based line of the result's start
   * @param message the result's message (used when the file cannot be read)
   * @returns the `partialFingerprints` object
   */
  fingerprint(ruleId: string, path: string, uri: string, line: number, message: string): Record<string, string> {
    const text = this.lineText(path, line) ?? `message:${message}`;
    const key = [ruleId, uri, text].join('\u0000');
    const occurrence = this.seen.get(key) ?? 0;
    this.seen.set(key, occurrence + 1);
    const hash = createHash('sha256').update(key).digest('hex').slice(0, 32);
    return { [FINGERPRINT_KEY]: `${hash}:${occurrence + 1}` };
  }

  private lineText(path: string, line: number): string | undefined {
    if (!this.lines.has(path)) this.lines.set(path, this.read(path)?.split(/\r\n|\r|\n/));
    const text = this.lines.get(path)?.[line];
    return text === undefined ? undefined : `line:${text.trim()}`;
  }
}
