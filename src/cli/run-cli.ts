/**
 * Dispatches a parsed command and maps failures to exit codes: usage errors and setup errors
 * print one `error:` line (plus a hint) on stderr and give 2. Loaded by `main.ts` only after the
 * Node version check, since the harness packages it pulls in need Node >= 22.19.
 */
import { runCheck } from './check-command.ts';
import { type CliIo, errorMessage, Interrupted, SetupError, signalExitCode, STOP_SIGNALS, type StopSignal, writeAll } from './cli-io.ts';
import { helpText } from './help-text.ts';
import { PACKAGE_VERSION } from './package-info.ts';
import { parseArgs, UsageError } from './parse-args.ts';

/**
 * @param argv arguments after the script (`process.argv.slice(2)`)
 * @param io streams, environment, working directory
 * @returns the exit code: 0 success, 1 check found errors (or an incomplete result), 2 usage or setup error,
 *   128 + signal when SIGINT (130) or SIGTERM (143) stopped a check
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const cmd = parseArgs(argv, io.env);
    switch (cmd.command) {
      case 'help':
        await writeAll(io.stdout, helpText(cmd.topic));
        return 0;
      case 'version':
        await writeAll(io.stdout, `${PACKAGE_VERSION}\n`);
        return 0;
      case 'serve': {
        // each command loads its own modules: `check` starts its plan before it loads more (decision 0112)
        const { runServe, whenStopped } = await import('./serve-command.ts');
        return await runServe(cmd, io, whenStopped(io.stdin));
      }
      case 'mcp': {
        // the MCP SDK (and zod) load only for this command: ~0.5 s of imports check and serve do not pay
        const [{ runMcp }, { whenStopped }] = await Promise.all([import('./mcp-command.ts'), import('./serve-command.ts')]);
        return await runMcp(cmd, io, whenStopped(io.stdin));
      }
      case 'check':
        return await withInterrupt((signal) => runCheck(cmd, io, signal), io);
    }
  } catch (error) {
    return reportFailure(error, io, argv);
  }
}

/**
 * Runs a command that stops early on SIGINT/SIGTERM: the first signal aborts the run with an
 * {@link Interrupted} reason (the command then reports what it finished and returns 128 +
 * signal); a second one, when this run owns the process, exits at once with that code.
 */
async function withInterrupt<T>(run: (signal: AbortSignal) => Promise<T>, io: CliIo): Promise<T> {
  const controller = new AbortController();
  const handlers = new Map<StopSignal, () => void>();
  for (const name of Object.keys(STOP_SIGNALS) as StopSignal[]) {
    const handler = (): void => {
      if (!controller.signal.aborted) {
        controller.abort(new Interrupted(name));
      } else if (io.ownsProcess === true) {
        process.exit(signalExitCode(name));
      }
    };
    handlers.set(name, handler);
    process.on(name, handler);
  }
  try {
    return await run(controller.signal);
  } finally {
    // A process this run owns exits right after it (main.ts): the handlers stay until then. Taken
    // off, the signal's default action is back, and one arriving while the process exits killed it
    // (exit by signal instead of 130; seen under load, with Ctrl-C sent every 20 ms).
    if (io.ownsProcess !== true) for (const [name, handler] of handlers) process.off(name, handler);
  }
}

function reportFailure(error: unknown, io: CliIo, argv: readonly string[]): number {
  if (error instanceof UsageError) {
    const help = error.topic ? `dsh-lsp-actions help ${error.topic}` : 'dsh-lsp-actions --help';
    io.stderr.write(`error: ${error.message}\n${argv.length === 0 ? helpText() : `Run '${help}' for usage.\n`}`);
    return 2;
  }
  if (error instanceof SetupError) {
    io.stderr.write(`error: ${error.message}\n`);
    return 2;
  }
  io.stderr.write(`error: ${errorMessage(error)}\n`);
  if (error instanceof Error && error.stack && io.env['DSH_LSP_ACTIONS_DEBUG']) io.stderr.write(`${error.stack}\n`);
  return 2;
}
