/**
 * Decides what a command boots: a user's `--config` cordis.yml, or the default composition
 * with the server table built from the embedded server, the installed presets and `--servers`.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Config, ServerConfig } from '../config.ts';
import type { BootedComposition, CompositionSource } from './boot-composition.ts';
import { type CliIo, errorMessage, SetupError } from './cli-io.ts';
import { type CompositionEntry, defaultComposition } from './default-composition.ts';
import { loadServerOverrides, mergeEntry, resolveServers, type ServerOverrides } from './default-servers.ts';
import type { CommonOptions, SandboxModeName } from './parse-args.ts';
import { directTsserverEntry } from './direct-tsserver.ts';
import { EMBEDDED_TYPESCRIPT_ID } from '../presets/embedded-typescript.ts';

/** What varies per command. */
export interface CompositionRequest {
  workspace: string;
  sandbox: SandboxModeName;
  editor: boolean;
  plugin?: Partial<Omit<Config, 'servers' | 'editor'>>;
  /**
   * Fields the command sets on server entries (e.g. `check`'s TypeScript choice), per server id,
   * merged over the presets and under the user's `--servers` overrides (the user wins).
   */
  serverDefaults?: ServerOverrides;
  /** The `typescript` entry to start from instead of the embedded one (a TypeScript 7 workspace's own server). */
  typescriptServer?: ServerConfig;
  /** Drive the embedded TypeScript server's tsserver directly (`check`; see direct-tsserver.ts). */
  directTsserver?: boolean;
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
  /** The server table booted (absent for `--config`, whose servers the composition sets). */
  servers?: Record<string, ServerConfig>;
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
    const user = options.servers === undefined ? {} : loadServerOverrides(resolve(io.cwd, options.servers));
    const overrides = layerOverrides(request.serverDefaults ?? {}, user);
    const { servers, detected } = resolveServers(
      { workspace: request.workspace, path: io.env['PATH'], pathExt: io.env['PATHEXT'], rustupHome: io.env['RUSTUP_HOME'] },
      overrides,
      request.typescriptServer,
    );
    const typescript = request.directTsserver === true ? servers[EMBEDDED_TYPESCRIPT_ID] : undefined;
    const direct = typescript === undefined ? undefined : directTsserverEntry(typescript);
    if (direct !== undefined) servers[EMBEDDED_TYPESCRIPT_ID] = direct;
    const { serverDefaults: _defaults, typescriptServer: _typescript, directTsserver: _direct, ...rest } = request;
    const entries = defaultComposition({ ...rest, servers });
    return { source: { kind: 'entries', entries }, baseDir: request.workspace, entries, detected, servers };
  } catch (error) {
    throw new SetupError(errorMessage(error), { cause: error });
  }
}

/**
 * @param below the command's own fields per server id
 * @param above the user's overrides (win per field; `null` drops the server)
 * @returns one override table
 */
export function layerOverrides(below: ServerOverrides, above: ServerOverrides): ServerOverrides {
  const out: ServerOverrides = { ...below };
  for (const [id, entry] of Object.entries(above)) {
    const prior = out[id];
    out[id] = entry === null || prior === null || prior === undefined ? entry : mergeEntry(prior, entry);
  }
  return out;
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
    // loaded here, not with this file: `check` prepares before it plans and boots after (decision 0112)
    const { bootComposition } = await import('./boot-composition.ts');
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
