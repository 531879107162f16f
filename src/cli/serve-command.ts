/**
 * `dsh-lsp-actions serve`: a dedicated headless backend process for one editor. Boots the
 * default composition (or `--config`) through the cordis Loader with the plugin's editor
 * protocol on stdio, waits for the Loader, then runs until the editor goes away — stdin ends
 * (every request accepted before is answered and flushed first), stdout's reader closes, or
 * the parent process dies — or a signal arrives; then disposes everything, every language
 * server process included, flushes stdout and exits (0, or 128 + the signal number).
 *
 * Requests are confined to the `--workspace` folders (repeatable; the first is also the
 * sandbox's workspace root and the fs cwd).
 */
import { Console } from 'node:console';
import { rm } from 'node:fs/promises';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { recoverAtStart } from '../edits/startup-recovery.ts';
import { drainWrites } from '../edits/write-drain.ts';
import { compositionToYaml, PLUGIN_ROW_ID } from './default-composition.ts';
import { type CliIo, resolveWorkspace, writeAll } from './cli-io.ts';
import { PACKAGE_NAME, PACKAGE_VERSION } from './package-info.ts';
import type { ServeCommand } from './parse-args.ts';
import { bootPrepared, prepareComposition } from './prepare-composition.ts';
import { nativeTypeScriptServer } from '../presets/native-typescript.ts';
import type { ServerConfig } from '../config.ts';
import { chooseTypeScript, nativeCommand } from './workspace-typescript.ts';

/** Why `serve` stopped. */
export type StopReason = 'eof' | 'output-closed' | 'parent-died' | 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** Exit codes by stop reason: the editor going away is the normal end; a signal is 128 + its number. */
export const EXIT_CODES: Record<StopReason, number> = {
  eof: 0,
  'output-closed': 0,
  'parent-died': 0,
  SIGHUP: 129,
  SIGINT: 130,
  SIGTERM: 143,
};

/** How often the parent process is checked for being alive. */
const PARENT_POLL_MS = 1000;

/**
 * @param cmd the parsed command
 * @param io streams, environment, working directory
 * @param stopped resolves when the process should stop (stdin end or a signal)
 * @returns the exit code
 * @throws SetupError on setup problems (exit 2)
 */
export async function runServe(cmd: ServeCommand, io: CliIo, stopped: Promise<StopReason>): Promise<number> {
  const workspace = resolveWorkspace(cmd.workspace, io.cwd);
  const folders = [workspace, ...(cmd.workspaces ?? []).slice(1).map((folder) => resolveWorkspace(folder, io.cwd))];
  if (cmd.config !== undefined && cmd.workspace !== undefined) {
    // A user's composition reads the workspace from its own rows (e.g. `!!js process.cwd()`).
    process.chdir(workspace);
  }
  const typescriptServer = workspaceNativeServer(workspace);
  const prepared = prepareComposition(cmd, { workspace, sandbox: cmd.sandbox, editor: true, ...(typescriptServer === undefined ? {} : { typescriptServer }) }, io);
  servedFolders(prepared.entries, folders);
  if (cmd.printConfig) {
    const text =
      prepared.entries === undefined
        ? `# --config ${cmd.config ?? ''} is booted as it is\n`
        : compositionToYaml(
            prepared.entries,
            `${PACKAGE_NAME} ${PACKAGE_VERSION}: the default serve composition for ${workspace}\n` +
              `Run it with: dsh-lsp-actions serve --config <this file>`,
          );
    await writeAll(io.stdout, text);
    return 0;
  }
  if (io.ownsProcess === true) keepConsoleOffStdout(io.stderr);
  const booted = await bootPrepared(prepared, cmd, io);
  const log = booted.ctx.logger('dsh-lsp-actions');
  const api = booted.lspActions();
  if (api === undefined) {
    log.warn('the composition does not provide lspActions: nothing serves the editor protocol');
  } else if (!api.config.editor.enabled) {
    log.warn('the composition runs dsh-lsp-actions with editor.enabled false: nothing serves the editor protocol');
  } else {
    log.info('serving lsp-actions/v1 on stdio for %s (servers: %s)', folders.join(', '), Object.keys(api.config.servers).join(', '));
  }
  const fs = (booted.ctx as unknown as { fs?: FileSystem }).fs;
  if (fs !== undefined) {
    // An edit a crash (SIGKILL, power loss) left half-applied is put back before serving.
    await recoverAtStart(fs, folders, { removeStaging: (path) => rm(path, { recursive: true, force: true }), report: (line) => log.warn(line) });
  }
  ensureEndIsSeen(io.stdin);
  const editorClosed = api?.config.editor.enabled ? api.editorClosed : undefined;
  const watch = new AbortController();
  const reason = await Promise.race<StopReason>([
    // with the backend on stdio, the end of stdin counts once its accepted requests are answered
    editorClosed ?? stopped,
    ...(editorClosed ? [stopped.then((why) => (why === 'eof' ? never() : why))] : []),
    whenSignalled(watch.signal),
    ...(io.ownsProcess === true ? [whenParentDies(watch.signal)] : []),
  ]);
  watch.abort();
  log.info('stopping (%s)', reason);
  // A stop never half-applies a write: runs are aborted by the dispose below, but a write that
  // already began commits or rolls back first (src/edits/write-drain.ts) — awaited before and
  // after the dispose, since a run may begin its commit while being aborted.
  await drainWrites();
  const clean = await booted.dispose();
  await drainWrites();
  if (!clean) io.stderr.write('warning: shutdown did not finish in time; remaining processes are terminated at exit\n');
  await flushed(io.stdout);
  return EXIT_CODES[reason];
}

/** The served folders go to the plugin's editor config (every request's root must lie inside one). */
function servedFolders(entries: ReturnType<typeof prepareComposition>['entries'], folders: string[]): void {
  const row = entries?.find((entry) => entry.id === PLUGIN_ROW_ID);
  if (row?.config === undefined) return;
  const editor = (row.config['editor'] ?? {}) as Record<string, unknown>;
  row.config['editor'] = { ...editor, workspaceRoots: folders };
}

function never(): Promise<never> {
  return new Promise(() => undefined);
}

/**
 * @param signal stops listening
 * @returns resolves with the first of SIGINT, SIGTERM, SIGHUP
 */
export function whenSignalled(signal: AbortSignal): Promise<StopReason> {
  return new Promise((resolveStop) => {
    const names = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const handlers = names.map((name) => [name, (): void => finish(name)] as const);
    const finish = (reason: StopReason): void => {
      for (const [name, handler] of handlers) process.off(name, handler);
      resolveStop(reason);
    };
    for (const [name, handler] of handlers) process.once(name, handler);
    signal.addEventListener('abort', () => {
      for (const [name, handler] of handlers) process.off(name, handler);
    }, { once: true });
  });
}

/**
 * @param signal stops watching
 * @returns resolves `parent-died` once this process was re-parented (its parent exited)
 */
export function whenParentDies(signal: AbortSignal): Promise<StopReason> {
  const parent = process.ppid;
  return new Promise((resolveStop) => {
    const timer = setInterval(() => {
      if (process.ppid !== parent) {
        clearInterval(timer);
        resolveStop('parent-died');
      }
    }, PARENT_POLL_MS);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  });
}

/** Settles once everything written to stdout was handed to the OS (a pipe's reader may be slow). */
export function flushed(stdout: CliIo['stdout']): Promise<void> {
  const stream = stdout as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
  if (stream.destroyed === true || stream.writableEnded === true) return Promise.resolve();
  return new Promise((resolveFlush) => {
    const done = (): void => resolveFlush();
    stream.once('error', done);
    stream.write('', () => {
      stream.off('error', done);
      done();
    });
  });
}

/**
 * stdout carries protocol frames only: a stray `console.log` in any loaded module would corrupt
 * the stream, so the console's stdout methods write to stderr for the life of this process.
 */
export function keepConsoleOffStdout(stderr: NodeJS.WritableStream): void {
  const toStderr = new Console({ stdout: stderr, stderr });
  for (const method of ['log', 'info', 'debug', 'dir', 'dirxml', 'table'] as const) {
    (console as unknown as Record<string, unknown>)[method] = (toStderr[method] as (...args: unknown[]) => void).bind(toStderr);
  }
}

/**
 * The editor backend reads stdin; if nothing does (a `--config` without it), drain it so its
 * end is still noticed.
 */
export function ensureEndIsSeen(stdin: CliIo['stdin']): void {
  if (stdin.listenerCount('data') + stdin.listenerCount('readable') === 0) stdin.resume();
}

/**
 * @param stdin the input stream
 * @returns resolves with why the process should stop: stdin ended, or SIGINT/SIGTERM arrived
 */
export function whenStopped(stdin: CliIo['stdin']): Promise<StopReason> {
  return new Promise((resolveStop) => {
    const finish = (reason: StopReason): void => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolveStop(reason);
    };
    const onInt = (): void => finish('SIGINT');
    const onTerm = (): void => finish('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    if (stdin.readableEnded) finish('eof');
    stdin.once('end', () => finish('eof'));
    stdin.once('close', () => finish('eof'));
  });
}

/**
 * A workspace on TypeScript 7 is served by that TypeScript's own language server (`tsc --lsp`),
 * never by the embedded 5.9 (another compiler's verdict). Older workspaces keep the embedded
 * server, as before.
 * @param workspace the workspace root
 * @returns the `typescript` entry to use instead of the embedded one, if the workspace's TypeScript is 7 or newer
 */
export function workspaceNativeServer(workspace: string): ServerConfig | undefined {
  let choice: ReturnType<typeof chooseTypeScript>;
  try {
    choice = chooseTypeScript(workspace, 'auto', workspace);
  } catch {
    // No usable TypeScript found: the embedded server, as before.
    return undefined;
  }
  if (choice.kind !== 'native' || choice.source !== 'workspace') return undefined;
  const { command, args } = nativeCommand(choice.serverPath);
  return nativeTypeScriptServer(command, args);
}
