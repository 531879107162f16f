/**
 * The process surface the commands use, passed in so tests can run them in-process with
 * captured streams; the setup error class (exit code 2); and the process-level teardown guard.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LogLevel } from './parse-args.ts';

/** Streams, environment and working directory of one CLI run. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { readableEnded?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /**
   * This run is the whole process (the bin, not a test calling in): it may keep the console off
   * stdout and install process-level handlers for teardown.
   */
  ownsProcess?: boolean;
}

/** A setup problem (missing path, bad config, boot failure): reported on stderr, exit code 2. */
export class SetupError extends Error {
  /**
   * @param message what is wrong and, where there is one, the remedy
   * @param options standard `cause`
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SetupError';
  }
}

/** Signals that stop a run, with their numbers (exit code 128 + number, the shell convention). */
export const STOP_SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const;
/** A signal that stops a run. */
export type StopSignal = keyof typeof STOP_SIGNALS;

/** The abort reason of a run stopped by a signal. */
export class Interrupted extends Error {
  /** The signal received. */
  readonly signal: StopSignal;

  /** @param signal the signal received */
  constructor(signal: StopSignal) {
    super(`interrupted by ${signal}`);
    this.signal = signal;
    this.name = 'Interrupted';
  }
}

/**
 * @param signal the run's abort signal
 * @returns the stop signal that aborted it, if a stop signal did
 */
export function stopSignalOf(signal: AbortSignal | undefined): StopSignal | undefined {
  return signal?.aborted === true && signal.reason instanceof Interrupted ? signal.reason.signal : undefined;
}

/**
 * @param signal a stop signal
 * @returns its exit code: 130 for SIGINT, 143 for SIGTERM
 */
export function signalExitCode(signal: StopSignal): number {
  return 128 + STOP_SIGNALS[signal];
}

/**
 * Writes text and resolves once the stream accepted it (so a following `process.exit` cannot
 * cut a large report written to a pipe).
 * @param stream the stream
 * @param text what to write
 * @returns when the write was flushed to the stream
 */
export function writeAll(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolveWrite, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolveWrite()));
  });
}

/**
 * @param given `--workspace` as given, or undefined for the current directory
 * @param cwd the current directory
 * @returns the absolute workspace root
 * @throws SetupError when it is not an existing directory
 */
export function resolveWorkspace(given: string | undefined, cwd: string): string {
  const root = resolve(cwd, given ?? '.');
  let isDirectory = false;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch {
    // Reported below.
  }
  if (!isDirectory) throw new SetupError(`workspace ${root} is not a directory`);
  return root;
}

let guardInstalled = false;

/**
 * Once a CLI process starts tearing its composition down, language servers die and their
 * pipes close; a late write or cancellation to a closed connection (EPIPE, "Connection is
 * closed") must not turn a finished `check` or a clean end of `serve` into a crash with a
 * different exit code. From teardown on — the process exits right after — such errors are
 * logged (at `info`) instead of crashing. Only installed when the CLI owns the process.
 *
 * @param stderr where a note goes
 * @param level the CLI's log level (`info`/`debug` print a one-line note per error)
 */
export function guardTeardown(stderr: NodeJS.WritableStream, level: LogLevel): void {
  if (guardInstalled) return;
  guardInstalled = true;
  const note = (kind: string, error: unknown): void => {
    if (level !== 'info' && level !== 'debug') return;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    stderr.write(`info [dsh-lsp-actions] ignored during shutdown (${kind}): ${message}\n`);
  };
  process.on('uncaughtException', (error) => note('uncaught exception', error));
  process.on('unhandledRejection', (reason) => note('unhandled rejection', reason));
}

/** Log levels by verbosity (cordis ranks `warn` below `info`; these lines do not). */
const LEVEL_RANK: Record<string, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/**
 * @param level the most verbose level written (`--log-level`)
 * @returns whether a line of a type is written at that level
 */
export function logsAt(level: LogLevel): (type: string) => boolean {
  const threshold = level === 'silent' ? -1 : (LEVEL_RANK[level] ?? 1);
  return (type) => (LEVEL_RANK[type] ?? 3) <= threshold;
}

/**
 * The same lines for a logger that runs before any composition (`check`'s early server).
 * @param stderr the log stream
 * @param level the most verbose level written
 * @param name the logger's name (`lsp-actions`: the engine's)
 * @returns a log function
 */
export function stderrLog(stderr: NodeJS.WritableStream, level: LogLevel, name: string): (type: 'debug' | 'info' | 'warn' | 'error', message: string) => void {
  const writes = logsAt(level);
  return (type, message) => {
    if (writes(type)) stderr.write(`${type} [${name}] ${message}\n`);
  };
}

/**
 * @param error anything thrown
 * @returns a one-line message, including a wrapped cause's message
 */
export function errorMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(errorMessage).join('; ');
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error && !error.message.includes(error.cause.message) ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
