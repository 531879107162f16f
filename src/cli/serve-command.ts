/**
 * `dsh-lsp-actions serve`: a dedicated headless backend process for one editor. Boots the
 * default composition (or `--config`) through the cordis Loader with the plugin's editor
 * protocol on stdio, waits for the Loader, then runs until stdin ends (the editor went away),
 * disposes everything — every language server process included — and exits 0.
 */
import { Console } from 'node:console';
import { rm } from 'node:fs/promises';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { recoverAtStart } from '../edits/startup-recovery.ts';
import { drainWrites } from '../edits/write-drain.ts';
import { compositionToYaml } from './default-composition.ts';
import { type CliIo, resolveWorkspace, writeAll } from './cli-io.ts';
import { PACKAGE_NAME, PACKAGE_VERSION } from './package-info.ts';
import type { ServeCommand } from './parse-args.ts';
import { bootPrepared, prepareComposition } from './prepare-composition.ts';

/** Why `serve` stopped. */
export type StopReason = 'eof' | 'SIGINT' | 'SIGTERM';

/** Exit codes by stop reason: end of input is the normal end. */
const EXIT_CODES: Record<StopReason, number> = { eof: 0, SIGINT: 130, SIGTERM: 143 };

/**
 * @param cmd the parsed command
 * @param io streams, environment, working directory
 * @param stopped resolves when the process should stop (stdin end or a signal)
 * @returns the exit code
 * @throws SetupError on setup problems (exit 2)
 */
export async function runServe(cmd: ServeCommand, io: CliIo, stopped: Promise<StopReason>): Promise<number> {
  const workspace = resolveWorkspace(cmd.workspace, io.cwd);
  if (cmd.config !== undefined && cmd.workspace !== undefined) {
    // A user's composition reads the workspace from its own rows (e.g. `!!js process.cwd()`).
    process.chdir(workspace);
  }
  const prepared = prepareComposition(cmd, { workspace, sandbox: cmd.sandbox, editor: true }, io);
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
    log.info('serving lsp-actions/v1 on stdio for %s (servers: %s)', workspace, Object.keys(api.config.servers).join(', '));
  }
  const fs = (booted.ctx as unknown as { fs?: FileSystem }).fs;
  if (fs !== undefined) {
    // An edit a crash (SIGKILL, power loss) left half-applied is put back before serving.
    await recoverAtStart(fs, [workspace], { removeStaging: (path) => rm(path, { recursive: true, force: true }), report: (line) => log.warn(line) });
  }
  ensureEndIsSeen(io.stdin);
  const reason = await stopped;
  log.info('stopping (%s)', reason);
  const clean = await booted.dispose();
  // Runs were aborted by dispose: a write in progress rolls back (or finishes) before we exit.
  await drainWrites();
  if (!clean) io.stderr.write('warning: shutdown did not finish in time; remaining processes are terminated at exit\n');
  return EXIT_CODES[reason];
}

/**
 * stdout carries protocol frames only: a stray `console.log` in any loaded module would corrupt
 * the stream, so the console's stdout methods write to stderr for the life of this process.
 */
function keepConsoleOffStdout(stderr: NodeJS.WritableStream): void {
  const toStderr = new Console({ stdout: stderr, stderr });
  for (const method of ['log', 'info', 'debug', 'dir', 'dirxml', 'table'] as const) {
    (console as unknown as Record<string, unknown>)[method] = (toStderr[method] as (...args: unknown[]) => void).bind(toStderr);
  }
}

/**
 * The editor backend reads stdin; if nothing does (a `--config` without it), drain it so its
 * end is still noticed.
 */
function ensureEndIsSeen(stdin: CliIo['stdin']): void {
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
