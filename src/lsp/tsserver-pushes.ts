/**
 * The pushed diagnostics of the tsserver bridge (src/lsp/tsserver-bridge.ts), made as
 * typescript-language-server 5.3.0 makes them: a while after an open file is opened or changed
 * (or another closed, or tsserver updated projects in the background), tsserver's `geterr` is
 * asked for the open files; its `syntaxDiag`/`semanticDiag`/`suggestionDiag` events are kept per
 * kind and file, converted by {@link tsserverToLspDiagnostic} (codes in `diagnostics.ignoredCodes`
 * dropped), and published 50 ms after the last, all kinds together, without a version; a closed
 * file is published empty once. They are the engine's fallback when the passthrough fails.
 */
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { tsserverToLspDiagnostic } from './tsserver-diagnostics.ts';

/** The diagnostic kinds tsserver's `geterr` reports, by event name. */
export const PUSH_EVENTS: ReadonlySet<string> = new Set(['syntaxDiag', 'semanticDiag', 'suggestionDiag']);

/** Quiet time after the last kind arrived before a file's problems are published. */
const PUBLISH_DELAY_MS = 50;

interface Pushed {
  uri: string;
  kinds: Map<string, Diagnostic[]>;
  timer?: NodeJS.Timeout | undefined;
}

/** What the pushes need from the bridge. */
export interface PushSink {
  /** Sends one `textDocument/publishDiagnostics`. */
  publish: (uri: string, diagnostics: Diagnostic[]) => void;
  /** Asks tsserver's `geterr` for these files. */
  askErrors: (files: string[]) => void;
}

/** Pushed diagnostics of the open files of one tsserver. */
export class TsserverPushes {
  /** Codes left out (the server's `diagnostics.ignoredCodes` setting). */
  ignoredCodes: ReadonlySet<unknown> = new Set();
  private readonly sink: PushSink;
  private readonly delayMs: number;
  private readonly files = new Map<string, Pushed>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param sink where pushes and `geterr` requests go
   * @param delayMs quiet time after an open or change before `geterr` is asked
   */
  constructor(sink: PushSink, delayMs: number) {
    this.sink = sink;
    this.delayMs = delayMs;
  }

  /**
   * @param file a file just opened (again)
   * @param uri its URI as the client sent it
   */
  opened(file: string, uri: string): void {
    clearTimeout(this.files.get(file)?.timer);
    this.files.set(file, { uri, kinds: new Map() });
    this.schedule(file);
  }

  /** @param file an open file just changed */
  changed(file: string): void {
    this.schedule(file);
  }

  /** @param file a file just closed: published empty, and every other open file asked again */
  closed(file: string): void {
    const pushed = this.files.get(file);
    this.files.delete(file);
    this.pending.delete(file);
    if (pushed === undefined) return;
    clearTimeout(pushed.timer);
    this.sink.publish(pushed.uri, []);
    for (const other of this.files.keys()) this.schedule(other);
  }

  /**
   * @param event a tsserver event name
   * @param body its body
   */
  onEvent(event: string, body: Record<string, unknown>): void {
    if (PUSH_EVENTS.has(event) && typeof body.file === 'string' && Array.isArray(body.diagnostics)) {
      this.onDiagnostics(event, body.file, body.diagnostics);
    } else if (event === 'projectsUpdatedInBackground' && Array.isArray(body.openFiles)) {
      for (const file of body.openFiles) if (typeof file === 'string') this.schedule(file);
    }
  }

  /** Stops every timer. */
  dispose(): void {
    clearTimeout(this.timer);
    for (const pushed of this.files.values()) clearTimeout(pushed.timer);
  }

  private onDiagnostics(kind: string, file: string, raw: unknown[]): void {
    const pushed = this.files.get(file);
    if (pushed === undefined) return;
    const diagnostics: Diagnostic[] = [];
    for (const item of raw) {
      try {
        const diagnostic = tsserverToLspDiagnostic(item);
        if (!this.ignoredCodes.has(diagnostic.code)) diagnostics.push(diagnostic);
      } catch {
        // swallowed: a malformed item is left out of the push (typescript-language-server cannot convert it either)
      }
    }
    if (pushed.kinds.get(kind)?.length === 0 && diagnostics.length === 0) return;
    pushed.kinds.set(kind, diagnostics);
    clearTimeout(pushed.timer);
    pushed.timer = setTimeout(() => {
      pushed.timer = undefined;
      if (this.files.get(file) === pushed) this.sink.publish(pushed.uri, [...pushed.kinds.values()].flat());
    }, PUBLISH_DELAY_MS);
    pushed.timer.unref();
  }

  private schedule(file: string): void {
    if (!this.files.has(file)) return;
    this.pending.add(file);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const files = [...this.pending].filter((f) => this.files.has(f));
      this.pending.clear();
      if (files.length > 0) this.sink.askErrors(files);
    }, this.delayMs);
    this.timer.unref();
  }
}
