/**
 * `check` on TypeScript 7: its language server started — and its project's load asked for —
 * before the composition boots, then handed to the engine, which would have started that very
 * process only after the boot (~0.2 s in). The load (~0.1 s) runs beside the boot instead of
 * after it. See docs/decisions/0113-server-before-boot.md.
 *
 * What keeps the answers' proof (decision 0110) as it was:
 * - the versions snapshot is the early plan's, taken right after its walk, before this spawn;
 * - the watches the engine would set up before spawning (the server's root, the workspace) are
 *   set up here first, and handed to the engine with every change they saw
 *   (documents/prestarted-watches.ts);
 * - the process is spawned by the harness's own local subprocess package, and the engine's pool
 *   takes it only if it is exactly the process it would have started (lsp/prestarted-servers.ts);
 *   otherwise it starts its own and this one is stopped.
 * Only for the default composition: a user's `cordis.yml` may run servers in another world.
 */
import { isAbsolute, join } from 'node:path';
import { URI } from 'vscode-uri';
import type { ServerConfig } from '../config.ts';
import { prestartWatch, type PrestartedWatch } from '../documents/prestarted-watches.ts';
import { nodeWorkspaceWatch } from '../documents/node-workspace-watcher.ts';
import type { EngineLog } from '../lsp/json-rpc-connection.ts';
import { LanguageClient } from '../lsp/language-client.ts';
import { offerPrestartedServer, serverFingerprint } from '../lsp/prestarted-servers.ts';
import { loadUnopened } from '../lsp/unopened-pull.ts';
import { EMBEDDED_TYPESCRIPT_ID } from '../presets/embedded-typescript.ts';
import { raceAbort } from '../race-abort.ts';
import type { Walked } from './early-plan.ts';
import type { ProgramLister } from './native-program-listing.ts';
import { listProgramFromServer } from './server-program-listing.ts';
import { untilOrAfter } from './until-or-after.ts';
import { warmSeed } from './warm-typescript.ts';

/**
 * The longest the boot waits for the server to have taken its load request in hand (its
 * `initialize` answered, its first requests to us answered, the load pull sent): the boot's
 * imports hold the event loop, and the server waits for our answers before it loads.
 */
export const EARLY_SERVER_HEAD_START_MS = 150;

/**
 * The longest the server's listing may take once the project has loaded (it is a few ms: four
 * requests on a local socket); past it the compiler's listing is run instead.
 */
const SERVER_LISTING_TIMEOUT_MS = 5_000;

/**
 * How long after the load is sent the boot may wait for the server's first registration to be
 * answered. TypeScript 7's server (7.0.2) asks `client/registerCapability` right after
 * `initialized` and handles nothing else until the answer comes: measured with a raw client that
 * answered it 150 ms late, the project's load ended 150 ms later; answering the configuration
 * request late changed nothing. The boot's module loading holds this process's event loop for
 * ~70 ms, so a boot started before the answer was written held the load back by as much (on rxjs
 * the server used no CPU until the boot ended). It comes ~10 ms after `initialized`; a server
 * that registers nothing costs this wait once.
 */
const REGISTRATION_WAIT_MS = 50;

/** A placeholder until the real callback is known. */
const nothing = (): void => undefined;

/**
 * @param client a client not yet started
 * @returns `answered` resolves once the server's first `client/registerCapability` is answered and
 *   the answer written (the JSON-RPC writer sends on a later turn of the event loop), never
 *   rejects; `dispose` stops listening (a server that registers nothing)
 */
function firstRegistration(client: LanguageClient): { answered: Promise<void>; dispose(): void } {
  let answer = nothing;
  const answered = new Promise<void>((settle) => (answer = settle));
  const subscription = client.registry.onDidChange(() => {
    subscription.dispose();
    // the handler answers after this listener; vscode-jsonrpc writes the answer on a setImmediate
    setImmediate(() => setImmediate(answer));
  });
  return { answered, dispose: () => subscription.dispose() };
}

/** @returns `signal` (if any) bounded by `ms` */
function withTimeout(signal: AbortSignal | undefined, ms: number): AbortSignal {
  return signal === undefined ? AbortSignal.timeout(ms) : AbortSignal.any([signal, AbortSignal.timeout(ms)]);
}

/** Before the subprocess service is up there is nothing to dispose. */
const nothingToDispose = (): Promise<void> => Promise.resolve();

/** What the early start needs. */
export interface EarlyServerInputs {
  /** The TypeScript 7 server's entry, as the composition's table has it. */
  entry: ServerConfig;
  /** The file or config the server is started for (check-command's anchor). */
  anchor: string;
  /** The early plan's walk and its snapshot. */
  walked: Walked;
  workspace: string;
  rootMarkers: readonly string[];
  isTypeScriptFile: (path: string) => boolean;
  /** How long the load may take. */
  waitMs: number;
  /** How long the boot waits for the server's first registration (default {@link REGISTRATION_WAIT_MS}; tests). */
  registrationWaitMs?: number;
  log: EngineLog;
}

/** A server started ahead of the engine. */
export interface EarlyServer {
  /**
   * Resolves once the load was asked for and the server's first registration is answered (or
   * {@link REGISTRATION_WAIT_MS} passed), or the start failed. Never rejects.
   */
  readonly loadAsked: Promise<void>;
  /**
   * A program's listing from this server once its project has loaded (server-program-listing.ts):
   * for a program without references whose project it loaded, with no early diagnostics; else
   * undefined (then the compiler's listing is run).
   */
  readonly listProgram: ProgramLister;
  /**
   * Stops what the engine did not take (the process, the watches): call once the engine's warm
   * start has settled — it takes them then or never — so an unused process does not live on
   * through the check. Idempotent.
   */
  releaseUnused(): Promise<void>;
  /** {@link releaseUnused}, then the subprocess service (after the engine stopped what it took). */
  dispose(): Promise<void>;
}

/**
 * @param inputs the entry, anchor, walk and routing
 * @returns the server under way, or undefined when nothing was started (no seed file on the
 *   anchor's server, a command that is not an absolute path, a watch or the subprocess service
 *   that could not be set up)
 */
export async function startEarlyServer(inputs: EarlyServerInputs): Promise<EarlyServer | undefined> {
  const { entry, walked, workspace, log } = inputs;
  if (!isAbsolute(entry.command)) return undefined;
  const found = warmSeed(inputs.anchor, walked.files, inputs.isTypeScriptFile, workspace, inputs.rootMarkers);
  if (found === undefined) return undefined;
  const { seed, root } = found;
  const watches: PrestartedWatch[] = [];
  const stopWatches = (): void => {
    for (const watch of watches) watch.stop();
  };
  try {
    // the engine watches these before it spawns (warm-start.ts): so here too
    const watch = nodeWorkspaceWatch();
    watches.push(prestartWatch(watch, root));
    if (workspace !== root) watches.push(prestartWatch(watch, workspace));
  } catch (error) {
    stopWatches();
    log('debug', `${EMBEDDED_TYPESCRIPT_ID}: not started ahead (watching failed: ${(error as Error).message})`);
    return undefined;
  }
  let disposeService = nothingToDispose;
  let client: LanguageClient;
  let started: Promise<void>;
  let registered: ReturnType<typeof firstRegistration>;
  try {
    const [{ Context }, { LocalSubprocessRuntime }] = await Promise.all([import('@deepseek-ai/cordis'), import('@deepseek-ai/dsh-subprocess-local')]);
    const ctx = new Context();
    const fiber = ctx.plugin(LocalSubprocessRuntime);
    // the fiber's own disposal: it settles once the service has terminated what it owns
    disposeService = () => fiber.dispose();
    await fiber;
    client = new LanguageClient({ serverId: EMBEDDED_TYPESCRIPT_ID, root, config: entry, executable: entry.command, subprocess: ctx.subprocess, log });
    registered = firstRegistration(client);
    started = client.start();
  } catch (error) {
    stopWatches();
    await disposeService().catch(() => undefined);
    log('debug', `${EMBEDDED_TYPESCRIPT_ID}: not started ahead (${(error as Error).message})`);
    return undefined;
  }
  // failures are the pool's to report when it takes the client; unused, it is stopped below
  started.catch(() => undefined);
  // the load: registered before the pool can take the client, so the engine's warm start waits
  // for this pull instead of sending its own (unopened-pull.ts keeps one load per process)
  let load: Promise<void> | undefined;
  const sent = started.then(
    () => void (load = loadUnopened(client, seed, URI.file(seed).toString(), inputs.waitMs)),
    () => undefined,
  );
  // the server works on the load only once its first registration is answered (see REGISTRATION_WAIT_MS)
  const asked = sent.then(async () => {
    if (load !== undefined) await untilOrAfter(registered.answered, inputs.registrationWaitMs ?? REGISTRATION_WAIT_MS);
    registered.dispose();
  });
  // the project this server loads: the seed's, whose config is in the server's root
  const loadedConfigs = new Set(inputs.rootMarkers.map((name) => join(root, name)));
  const loaded = asked.then(() => (load === undefined ? false : load.then(() => true)));
  const listProgram: ProgramLister = async (program, signal) => {
    // with references the server reads the referenced projects' sources where `tsc` reads their
    // outputs: its file list is not the compiler's; another program's project it has not loaded
    if (program.references.length > 0 || !loadedConfigs.has(program.configPath)) return undefined;
    if (!(await raceAbort(loaded, withTimeout(signal, inputs.waitMs)).catch(() => false))) return undefined;
    return listProgramFromServer(client, program.configPath, { signal: withTimeout(signal, SERVER_LISTING_TIMEOUT_MS), log });
  };
  const withdraw = offerPrestartedServer({ serverId: EMBEDDED_TYPESCRIPT_ID, root, fingerprint: serverFingerprint(entry, entry.command), client, started });
  const releaseUnused = async (): Promise<void> => {
    if (withdraw()) {
      log('debug', `${EMBEDDED_TYPESCRIPT_ID}: the process started ahead was not taken by the engine; stopping it`);
      await client.stop().catch(() => undefined);
    }
    stopWatches();
  };
  return {
    loadAsked: asked,
    listProgram,
    releaseUnused,
    async dispose() {
      await releaseUnused();
      await disposeService().catch(() => undefined);
    },
  };
}
