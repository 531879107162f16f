/**
 * Test harness for the editor backend: a fake runner/registry/engine/context and a wire made
 * of two PassThrough streams, read back as parsed frames.
 */
import { PassThrough, type Writable } from 'node:stream';
import type { Context } from '@deepseek-ai/cordis';
import type { RunRequest } from '../../src/actions/action-runner.ts';
import type { ActionCatalogEntry } from '../../src/actions/action-registry.ts';
import type { EditorConfig } from '../../src/config.ts';
import { ActionError } from '../../src/errors.ts';
import type { DependencyChangeEvent, DiagnosticsEvent } from '../../src/lsp/engine-types.ts';
import { startEditorBackend, type EditorBackendDeps } from '../../src/editor/start-editor-backend.ts';

/** A fake action: its catalog entry and what running it does. */
export interface FakeAction extends ActionCatalogEntry {
  run?: (request: RunRequest) => Promise<unknown>;
}

/** The four v1 actions with trivial behaviour. */
export function v1Actions(): FakeAction[] {
  return [
    { action: 'diagnostics.get', writes: false, description: 'd' },
    { action: 'completion.get', writes: false, description: 'c' },
    { action: 'quickfix.apply', writes: true, description: 'q' },
    { action: 'format', writes: true, description: 'f' },
  ];
}

/** A runner shaped like `ActionRunner` over fake actions; records every request. */
export function fakeRunner(actions: FakeAction[]) {
  const requests: RunRequest[] = [];
  const byId = new Map(actions.map((a) => [a.action, a]));
  const registry = {
    list: (): ActionCatalogEntry[] => actions.map(({ action, writes, description }) => ({ action, writes, description })),
    has: (id: string) => byId.has(id),
    get: (id: string) => {
      const a = byId.get(id);
      if (!a) throw new ActionError('LSP_ACTION_UNKNOWN', `unknown action "${id}"`);
      return { id: a.action, writes: a.writes, description: a.description };
    },
  };
  return {
    requests,
    registry,
    async run(request: RunRequest): Promise<unknown> {
      requests.push(request);
      const def = registry.get(request.action);
      const a = byId.get(request.action);
      if (a?.run) return a.run(request);
      const filePath = (request.params as { filePath?: unknown } | undefined)?.filePath;
      return def.writes ? { kind: 'unchanged', filePath } : { kind: 'ok', action: request.action };
    },
  };
}

/** An engine with settable document texts and a push trigger. */
export function fakeEngine() {
  const docs = new Map<string, { text: string; version: number }>();
  const listeners = new Set<(e: DiagnosticsEvent) => void>();
  const dependencyListeners = new Set<(e: DependencyChangeEvent) => void>();
  return {
    docs,
    listeners,
    documentText: (path: string) => docs.get(path),
    onDiagnostics(listener: (e: DiagnosticsEvent) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    push(event: DiagnosticsEvent) {
      for (const l of listeners) l(event);
    },
    onDependencyChange(listener: (e: DependencyChangeEvent) => void) {
      dependencyListeners.add(listener);
      return () => void dependencyListeners.delete(listener);
    },
    dependencyChange(event: DependencyChangeEvent) {
      for (const l of dependencyListeners) l(event);
    },
  };
}

/** A context with `get` over a service map and a tiny event bus with listener accounting. */
export function fakeContext(services: Record<string, unknown> = {}) {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const ctx = {
    services,
    get: (name: string) => services[name],
    on(name: string, fn: (...args: unknown[]) => void) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(fn);
      return () => set.delete(fn);
    },
    emit(name: string, ...args: unknown[]) {
      for (const fn of listeners.get(name) ?? []) fn(...args);
    },
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
  return ctx;
}

/** Editor config for tests. */
export function editorConfig(over: Partial<EditorConfig> = {}): EditorConfig {
  return { enabled: true, requestTimeoutMs: 5_000, diagnosticsCacheMaxFiles: 4, maxLineBytes: 1024, diagnosticsDebounceMs: 10, workspaceRoots: [], ...over };
}

/** Reads a writable's lines back as parsed frames. */
export class Wire {
  readonly input = new PassThrough();
  readonly output: PassThrough;
  readonly lines: string[] = [];
  #buffer = '';
  #waiters: Array<() => void> = [];

  /** @param output the stream the backend writes to */
  constructor(output = new PassThrough()) {
    this.output = output;
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let i;
      while ((i = this.#buffer.indexOf('\n')) !== -1) {
        this.lines.push(this.#buffer.slice(0, i));
        this.#buffer = this.#buffer.slice(i + 1);
      }
      for (const w of this.#waiters.splice(0)) w();
    });
  }

  /** @returns every frame written so far */
  get frames(): Array<Record<string, any>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, any>);
  }

  /** @param message one object written as one line */
  send(message: object): void {
    this.input.write(`${JSON.stringify(message)}\n`);
  }

  /** @param id request id @returns its response frame */
  response(id: unknown): Promise<Record<string, any>> {
    return this.waitFor((f) => f['id'] === id && ('result' in f || 'error' in f));
  }

  /** @returns the events (params of `lsp.event`) so far */
  events(kind?: string): Array<Record<string, any>> {
    return this.frames.filter((f) => f['method'] === 'lsp.event' && (kind === undefined || f['params'].kind === kind)).map((f) => f['params']);
  }

  /** Waits (up to 2 s) for a frame matching `predicate`. */
  async waitFor(predicate: (f: Record<string, any>) => boolean, timeoutMs = 2_000): Promise<Record<string, any>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.frames.find(predicate);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no matching frame; got:\n${this.lines.join('\n')}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 20);
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
}

/** Starts a backend over a fresh wire with fakes; returns everything a test needs. */
export function startFake(options: {
  actions?: FakeAction[];
  config?: Partial<EditorConfig>;
  services?: Record<string, unknown>;
  output?: Writable & PassThrough;
  onClose?: () => void;
} = {}) {
  const runner = fakeRunner(options.actions ?? v1Actions());
  const engine = fakeEngine();
  const ctx = fakeContext(options.services);
  const wire = new Wire(options.output);
  const logs: string[] = [];
  const deps: EditorBackendDeps = {
    runner: runner as unknown as EditorBackendDeps['runner'],
    engine,
    config: editorConfig(options.config),
    input: wire.input,
    output: wire.output,
    log: (line) => logs.push(line),
    ...(options.onClose ? { onClose: options.onClose } : {}),
  };
  const dispose = startEditorBackend(ctx as unknown as Context, deps);
  let nextId = 1;
  const request = async (method: string, params: unknown): Promise<Record<string, any>> => {
    const id = String(nextId++);
    wire.send({ jsonrpc: '2.0', id, method, params });
    return wire.response(id);
  };
  const run = async (params: Record<string, unknown>) => (await request('lsp.actions.run', params))['result'] as Record<string, any>;
  return { runner, engine, ctx, wire, logs, dispose, request, run };
}

/** @returns a promise and its resolver */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
