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
import { isAbsolute } from 'node:path';
import { URI } from 'vscode-uri';
import type { ServerConfig } from '../config.ts';
import { prestartWatch, type PrestartedWatch } from '../documents/prestarted-watches.ts';
import { nodeWorkspaceWatch } from '../documents/node-workspace-watcher.ts';
import type { EngineLog } from '../lsp/json-rpc-connection.ts';
import { LanguageClient } from '../lsp/language-client.ts';
import { offerPrestartedServer, serverFingerprint } from '../lsp/prestarted-servers.ts';
import { loadUnopened } from '../lsp/unopened-pull.ts';
import { EMBEDDED_TYPESCRIPT_ID } from '../presets/embedded-typescript.ts';
import type { Walked } from './early-plan.ts';
import { warmSeed } from './warm-typescript.ts';

/**
 * The longest the boot waits for the server to have taken its load request in hand (its
 * `initialize` answered, its first requests to us answered, the load pull sent): the boot's
 * imports hold the event loop, and the server waits for our answers before it loads.
 */
export const EARLY_SERVER_HEAD_START_MS = 150;

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
  log: EngineLog;
}

/** A server started ahead of the engine. */
export interface EarlyServer {
  /** Resolves once the load was asked for, or the start failed (never rejects). */
  readonly loadAsked: Promise<void>;
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
  try {
    const [{ Context }, { LocalSubprocessRuntime }] = await Promise.all([import('@deepseek-ai/cordis'), import('@deepseek-ai/dsh-subprocess-local')]);
    const ctx = new Context();
    const fiber = ctx.plugin(LocalSubprocessRuntime);
    // the fiber's own disposal: it settles once the service has terminated what it owns
    disposeService = () => fiber.dispose();
    await fiber;
    client = new LanguageClient({ serverId: EMBEDDED_TYPESCRIPT_ID, root, config: entry, executable: entry.command, subprocess: ctx.subprocess, log });
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
  const asked = started.then(
    () => void loadUnopened(client, seed, URI.file(seed).toString(), inputs.waitMs),
    () => undefined,
  );
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
    releaseUnused,
    async dispose() {
      await releaseUnused();
      await disposeService().catch(() => undefined);
    },
  };
}
