/**
 * Starts the editor action protocol backend (`lsp-actions/v1`) on a stream pair — by default
 * this process's stdio, which only a dedicated headless backend may claim.
 */
import type { Context } from '@deepseek-ai/cordis';
import type { Loader } from '@deepseek-ai/cordis-plugin-loader';
import type { AgentRegistry } from '@deepseek-ai/dsh-agent';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import type { Readable, Writable } from 'node:stream';
import type { ActionRunner } from '../actions/action-runner.ts';
import type { EditorConfig } from '../config.ts';
import type { LspEngineApi } from '../lsp/engine-types.ts';
import { ActionRunHandler } from './action-run-handler.ts';
import { DiagnosticsCache } from './diagnostics-cache.ts';
import { DiagnosticsPusher } from './diagnostics-pusher.ts';
import { EditorDispatcher } from './editor-dispatcher.ts';
import { EventStream } from './event-stream.ts';
import { FsChangeWatcher } from './fs-change-watcher.ts';
import { NdjsonTransport } from './ndjson-transport.ts';
import { ClientPaths } from './run-effects.ts';
import { SessionDirectory } from './session-directory.ts';

/** Requests handled at once; beyond, input reading pauses until half of them are answered. */
const MAX_IN_FLIGHT = 256;
/**
 * Idle time after which `process.stdout` is probed (a blank line) for a reader that went away:
 * off unless `DSH_LSP_ACTIONS_OUTPUT_PROBE_MS` asks for it, since a blank line is not a v1 frame
 * and a strict client may reject it. Without it, a gone reader is noticed on the next frame
 * written, and the backend still stops at end of input or when its parent dies.
 */
const OUTPUT_PROBE_ENV = 'DSH_LSP_ACTIONS_OUTPUT_PROBE_MS';
const outputProbeFromEnv = (): number => {
  const ms = Number(process.env[OUTPUT_PROBE_ENV] ?? '0');
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
};

/** What the backend serves and where. */
export interface EditorBackendDeps {
  runner: Pick<ActionRunner, 'run' | 'registry'>;
  engine: Pick<LspEngineApi, 'documentText' | 'onDiagnostics'> & Partial<Pick<LspEngineApi, 'onDependencyChange'>>;
  config: EditorConfig;
  /** Defaults to `process.stdin`. */
  input?: Readable;
  /** Defaults to `process.stdout`; it then carries protocol frames only. */
  output?: Writable;
  /**
   * Called once when the input ended (the editor closed the pipe) and every request accepted
   * before it has been answered and its answer flushed to the output — or when the output
   * broke (its reader went away). The backend itself only stops reading; exiting the process
   * is the host's decision (the `serve` command disposes and exits).
   */
  onClose?: (why: 'eof' | 'output-closed') => void;
  /** One diagnostic line (malformed input, handler failures). Defaults to stderr, never stdout. */
  log?: (line: string) => void;
  /**
   * When idle this long, probe the output with a blank line to notice a reader that went away
   * (0: never). Defaults to 1000 ms on `process.stdout`, 0 on any other output.
   */
  outputProbeMs?: number;
}

/**
 * Starts serving. Call it inside `ctx.effect` (the plugin does, when `editor.enabled`): every
 * listener, timer, cache and the stream claim are released by the returned disposer, which also
 * aborts runs in flight (their envelopes fail with `LSP_ACTION_CANCELLED` and are still written).
 * Requests are answered only after `ctx.loader.await()` settles, since Loader entries mount
 * concurrently and the catalog or the agent registry may still be arriving.
 * @param ctx the plugin's context (`fs`, `agents`, `loader` are read with `ctx.get` when present)
 * @param deps runner, engine, editor config, optional streams and callbacks
 * @returns the disposer; idempotent, settles once everything is released
 */
export function startEditorBackend(ctx: Context, deps: EditorBackendDeps): () => Promise<void> {
  const { config, engine, runner } = deps;
  const input = deps.input ?? process.stdin;
  const output = deps.output ?? process.stdout;
  const log = deps.log ?? ((line: string) => void process.stderr.write(`[dsh-lsp-actions editor] ${line}\n`));

  const cache = new DiagnosticsCache(config.diagnosticsCacheMaxFiles);
  const paths = new ClientPaths(config.diagnosticsCacheMaxFiles);
  const sessions = new SessionDirectory((): AgentRegistry | undefined => ctx.get('agents'));
  let dispatcher: EditorDispatcher | undefined;
  let closeReported = false;
  const reportClose = (why: 'eof' | 'output-closed'): void => {
    if (closeReported) return;
    closeReported = true;
    deps.onClose?.(why);
  };
  const transport = new NdjsonTransport({
    input,
    output,
    maxLineBytes: config.maxLineBytes,
    onMessage: (message) => {
      dispatcher?.dispatch(message);
      // backpressure on input: too many requests in flight pause reading until some are answered
      if ((dispatcher?.pendingCount ?? 0) >= MAX_IN_FLIGHT) transport.hold('in-flight');
    },
    onIgnored: log,
    onClose: () => {
      log('input ended; answering the requests already accepted');
      void (async () => {
        await dispatcher?.idle();
        await transport.flush();
        reportClose('eof');
      })();
    },
    onOutputClosed: () => {
      log('output closed (its reader went away)');
      reportClose('output-closed');
    },
  });
  // a reader that went away is only seen on a write: probe with a blank line when idle (opt-in)
  const probeMs = deps.outputProbeMs ?? (output === process.stdout ? outputProbeFromEnv() : 0);
  const probe =
    probeMs > 0
      ? setInterval(() => {
          if (transport.idleMs >= probeMs) transport.probeOutput();
        }, probeMs)
      : undefined;
  probe?.unref();
  const events = new EventStream((frame) => transport.send(frame));
  const fs = (): FileSystem | undefined => ctx.get('fs');
  let served: Promise<readonly string[]> | undefined;
  const servedRoots = (): Promise<readonly string[]> =>
    (served ??= (async () => {
      if (config.workspaceRoots.length > 0) return config.workspaceRoots;
      // no folders configured: the fs seam's cwd (where relative paths resolve) is the one folder
      const files = fs();
      return files ? [(await files.resolve('.')).displayPath] : [process.cwd()];
    })());
  const runs = new ActionRunHandler({
    runner,
    engine,
    cache,
    events,
    sessions,
    paths,
    requestTimeoutMs: config.requestTimeoutMs,
    servedRoots,
    fileVersion: async (path, signal) => {
      const files = fs();
      return files ? (await files.stat(await files.resolve(path, { signal }), signal))?.version : undefined;
    },
    readFile: async (path, signal) => {
      const files = fs();
      return files ? await files.readText(await files.resolve(path, { signal }), signal) : undefined;
    },
  });
  const watcher = new FsChangeWatcher({
    cache,
    events,
    pathOf: (target) => fs()?.processPath(target),
    announced: (path) => runs.observedChange(path),
  });
  const pusher = new DiagnosticsPusher({ engine, cache, events, paths, debounceMs: config.diagnosticsDebounceMs });

  const closing = new AbortController();
  const closed = new Promise<void>((resolve) => closing.signal.addEventListener('abort', () => resolve(), { once: true }));
  let loaderReady: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    const loader: Loader | undefined = ctx.get('loader');
    loaderReady ??= Promise.resolve(loader?.await()).catch((error: unknown) => {
      log(`the composition reported a startup failure; serving anyway: ${error instanceof Error ? error.message : String(error)}`);
    });
    return Promise.race([loaderReady, closed]);
  };
  dispatcher = new EditorDispatcher({
    catalog: () => runner.registry.list(),
    sessions: () => sessions.list(),
    runs,
    events,
    send: (frame) => transport.send(frame),
    ready,
    log,
    onSettled: () => {
      if ((dispatcher?.pendingCount ?? 0) <= MAX_IN_FLIGHT / 2) transport.release('in-flight');
    },
  });

  const offs = [
    ctx.on('fs/observed', (target, observation) => void watcher.observe(target, observation)),
    ctx.on('agent/created', () => events.emit('sessions.changed', { sessions: sessions.list() })),
    ctx.on('agent/disposed', ({ agent }) => events.emit('sessions.changed', { sessions: sessions.list(agent) })),
  ];
  pusher.start();
  transport.start();

  let disposing: Promise<void> | undefined;
  return () =>
    (disposing ??= (async () => {
      clearInterval(probe);
      transport.stopReading();
      runs.close();
      closing.abort();
      for (const off of offs) off();
      pusher.stop();
      await dispatcher.idle();
      events.stop();
      transport.close();
      cache.clear();
      paths.clear();
    })());
}
