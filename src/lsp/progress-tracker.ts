/**
 * Work-done progress of one server (`window/workDoneProgress/create` + `$/progress`): which
 * tokens have begun and not ended. A server with open progress (loading a project, indexing)
 * is busy, so an empty diagnostics answer from it is not yet a trustworthy "no problems".
 */
import { Emitter, type Event } from 'vscode-jsonrpc';

/** One `$/progress` value as far as we read it. */
interface ProgressValue {
  kind?: unknown;
  title?: unknown;
}

/** Tracks begun-but-not-ended progress tokens. */
export class ProgressTracker {
  private readonly active = new Map<string, string>();
  private readonly changed = new Emitter<void>();
  /** When the last token ended (ms, `performance.now()`), for readiness heuristics. */
  lastEndedAt: number | undefined;
  /** Whether the server has ever reported progress. */
  everReported = false;

  /** Fires whenever a token begins or ends. */
  get onDidChange(): Event<void> {
    return this.changed.event;
  }

  /** @returns whether some progress is open */
  get busy(): boolean {
    return this.active.size > 0;
  }

  /** @returns titles of the open progress tokens (for status and logs) */
  get titles(): string[] {
    return [...this.active.values()];
  }

  /**
   * @param token the progress token
   * @param value the `$/progress` value (`begin` / `report` / `end`)
   */
  update(token: string | number, value: unknown): void {
    const key = String(token);
    const v = (typeof value === 'object' && value !== null ? value : {}) as ProgressValue;
    if (v.kind === 'begin') {
      this.everReported = true;
      this.active.set(key, typeof v.title === 'string' ? v.title : key);
      this.changed.fire();
    } else if (v.kind === 'end') {
      if (this.active.delete(key)) {
        this.lastEndedAt = performance.now();
        this.changed.fire();
      }
    }
  }

  /** Forgets every open token (server stopped). */
  clear(): void {
    if (this.active.size === 0) return;
    this.active.clear();
    this.changed.fire();
  }
}
