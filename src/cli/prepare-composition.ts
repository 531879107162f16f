/**
 * Decides what a command boots: a user's `--config` cordis.yml, or the default composition
 * with the server table built from the embedded server, the installed presets and `--servers`.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Config } from '../config.ts';
import { type BootedComposition, bootComposition, type CompositionSource, errorMessage } from './boot-composition.ts';
import { type CliIo, SetupError } from './cli-io.ts';
import { type CompositionEntry, defaultComposition } from './default-composition.ts';
import { loadServerOverrides, resolveServers } from './default-servers.ts';
import type { CommonOptions, SandboxModeName } from './parse-args.ts';

/** What varies per command. */
export interface CompositionRequest {
  workspace: string;
  sandbox: SandboxModeName;
  editor: boolean;
  plugin?: Partial<Omit<Config, 'servers' | 'editor'>>;
}

/** A composition ready to boot. */
export interface PreparedComposition {
  source: CompositionSource;
  /** Relative plugin names and paths resolve against this directory. */
  baseDir: string;
  /** The default composition's rows (absent for `--config`). */
  entries?: CompositionEntry[];
  /** Preset ids found installed. */
  detected: string[];
}

/**
 * @param options the command's common options
 * @param request workspace, sandbox, editor switch, plugin extras
 * @param io environment and working directory
 * @returns what to boot
 * @throws SetupError for a missing config file, an unreadable or invalid servers file
 */
export function prepareComposition(options: CommonOptions, request: CompositionRequest, io: CliIo): PreparedComposition {
  if (options.config !== undefined) {
    const path = resolve(io.cwd, options.config);
    if (!existsSync(path)) throw new SetupError(`config file ${path} does not exist`);
    return { source: { kind: 'file', path }, baseDir: dirname(path), detected: [] };
  }
  try {
    const overrides = options.servers === undefined ? {} : loadServerOverrides(resolve(io.cwd, options.servers));
    const { servers, detected } = resolveServers(
      { workspace: request.workspace, path: io.env['PATH'], pathExt: io.env['PATHEXT'], rustupHome: io.env['RUSTUP_HOME'] },
      overrides,
    );
    const entries = defaultComposition({ ...request, servers });
    return { source: { kind: 'entries', entries }, baseDir: request.workspace, entries, detected };
  } catch (error) {
    throw new SetupError(errorMessage(error), { cause: error });
  }
}

/**
 * @param prepared what to boot
 * @param options the command's common options (log level)
 * @param io streams
 * @returns the booted composition
 * @throws SetupError when a row fails to load
 */
export async function bootPrepared(prepared: PreparedComposition, options: CommonOptions, io: CliIo): Promise<BootedComposition> {
  try {
    return await bootComposition(prepared.source, {
      baseDir: prepared.baseDir,
      logLevel: options.logLevel,
      stderr: io.stderr,
      guardTeardown: io.ownsProcess === true,
    });
  } catch (error) {
    throw new SetupError(`the composition failed to start: ${errorMessage(error)}`, { cause: error });
  }
}
