/**
 * What `lsp_diagnostics` with `changes_only` compares against: the last fresh, complete
 * diagnostics each session saw for each file, keyed by session id + absolute path, bounded
 * (least recently used entries go first) and forgotten when the session's agent goes away.
 */
import type { WireDiagnostic } from '../actions/action-results.ts';

/** The fields a remembered diagnostic keeps (enough to say what was resolved, and where). */
export type RememberedDiagnostic = Pick<WireDiagnostic, 'severity' | 'range' | 'message' | 'source' | 'code'>;

/** What changed between two diagnostics lists of one file. */
export interface DiagnosticsChanges {
  /** In the new list, not in the old one. */
  added: WireDiagnostic[];
  /** In the old list, gone from the new one (positions as they were). */
  resolved: RememberedDiagnostic[];
  /** In both (a diagnostic that only moved, e.g. after lines were inserted above it, counts here). */
  unchanged: number;
}

/**
 * A diagnostic's identity across edits: what it says, not where (edits above it move it).
 * @param d a diagnostic
 * @returns the identity key
 */
function identity(d: RememberedDiagnostic): string {
  return `${d.severity}\0${d.source ?? ''}\0${d.code ?? ''}\0${d.message}`;
}

/**
 * Compares two lists as multisets of identities; among equal identities, the nearest positions
 * pair up first so a repeated message keeps the right instance as "resolved".
 * @param before the remembered list
 * @param after the current list
 * @returns new, resolved and unchanged counts
 */
export function diffDiagnostics(before: readonly RememberedDiagnostic[], after: readonly WireDiagnostic[]): DiagnosticsChanges {
  const pool = new Map<string, RememberedDiagnostic[]>();
  for (const d of before) {
    const key = identity(d);
    const list = pool.get(key);
    if (list) list.push(d);
    else pool.set(key, [d]);
  }
  const added: WireDiagnostic[] = [];
  let unchanged = 0;
  for (const d of after) {
    const candidates = pool.get(identity(d));
    if (!candidates || candidates.length === 0) {
      added.push(d);
      continue;
    }
    let best = 0;
    for (let i = 1; i < candidates.length; i++) {
      const c = candidates[i] as RememberedDiagnostic;
      const b = candidates[best] as RememberedDiagnostic;
      if (Math.abs(c.range.start.line - d.range.start.line) < Math.abs(b.range.start.line - d.range.start.line)) best = i;
    }
    candidates.splice(best, 1);
    unchanged++;
  }
  const resolved = [...pool.values()].flat().sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return { added, resolved, unchanged };
}

/**
 * @param d a diagnostic from a result
 * @returns the copy kept in memory (no server payloads, no tags)
 */
function remember(d: WireDiagnostic): RememberedDiagnostic {
  const kept: RememberedDiagnostic = { severity: d.severity, range: d.range, message: d.message };
  if (d.source !== undefined) kept.source = d.source;
  if (d.code !== undefined) kept.code = d.code;
  return kept;
}

/** Per-session baselines for `changes_only`, bounded to `maxFiles` entries over all sessions. */
export class DiagnosticsMemory {
  readonly #maxFiles: number;
  readonly #entries = new Map<string, RememberedDiagnostic[]>();

  /** @param maxFiles most (session, file) baselines kept at once */
  constructor(maxFiles: number) {
    this.#maxFiles = Math.max(1, maxFiles);
  }

  /** @returns how many baselines are kept */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * @param sessionId the calling session
   * @param path absolute file path
   * @returns the last complete fresh list that session saw for the file, if any
   */
  get(sessionId: string, path: string): readonly RememberedDiagnostic[] | undefined {
    const key = `${sessionId}\0${path}`;
    const entry = this.#entries.get(key);
    if (entry) {
      // Refresh its place in the LRU order.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  /**
   * Remembers a complete, fresh list (callers must not pass truncated or stale lists).
   * @param sessionId the calling session
   * @param path absolute file path
   * @param diagnostics the full current list
   */
  set(sessionId: string, path: string, diagnostics: readonly WireDiagnostic[]): void {
    const key = `${sessionId}\0${path}`;
    this.#entries.delete(key);
    this.#entries.set(key, diagnostics.map(remember));
    while (this.#entries.size > this.#maxFiles) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  /** @param sessionId a session that ended; its baselines are dropped */
  forgetSession(sessionId: string): void {
    const prefix = `${sessionId}\0`;
    for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.#entries.delete(key);
  }

  /** Drops everything (plugin disposal). */
  clear(): void {
    this.#entries.clear();
  }
}
