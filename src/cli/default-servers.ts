/**
 * The server table the command line boots with: the embedded TypeScript/JavaScript server
 * (this package's own typescript-language-server 5.3.0 + TypeScript 5.9.3, run by the current
 * Node, so it works with nothing else installed), plus a preset for every other language
 * server found installed, plus a user's `--servers` file merged over them per server id.
 *
 * Detection only looks for executables; it never runs them. The plugin spawns servers itself
 * through `ctx.subprocess`, lazily, when a file needs one.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import type { ServerConfig } from '../config.ts';
import { yaml } from './lazy-yaml.ts';
import { ServerConfig as ServerConfigSchema } from '../config.ts';
import { EMBEDDED_TYPESCRIPT_ID, embeddedTypeScriptServer } from '../presets/embedded-typescript.ts';
import { SERVER_PRESETS, type ServerPreset } from './server-presets.ts';

/** A `--servers` file: server id → fields to merge over the preset (or a new entry), `null` to drop it. */
export type ServerOverrides = Record<string, Partial<ServerConfig> | null>;

/** Where to look for installed servers. */
export interface DetectOptions {
  /** Workspace root: its `node_modules/.bin` is searched before `PATH`. */
  workspace: string;
  /** The `PATH` value to search. */
  path: string | undefined;
  /** Platform, for Windows `PATHEXT` handling. */
  platform?: NodeJS.Platform;
  /** `PATHEXT` (Windows only). */
  pathExt?: string | undefined;
  /** rustup's home (`RUSTUP_HOME`, default `~/.rustup`), to tell a working rustup proxy from an empty one. */
  rustupHome?: string | undefined;
}

/** The resolved table and what went into it. */
export interface ResolvedServers {
  servers: Record<string, ServerConfig>;
  /** Preset ids found installed and added. */
  detected: string[];
}

/**
 * @param name executable name
 * @param options where to look
 * @returns the absolute path of the first executable file named `name`, if any
 */
export function findExecutable(name: string, options: DetectOptions): string | undefined {
  const dirs = [join(options.workspace, 'node_modules', '.bin'), ...(options.path ?? '').split(delimiter)];
  const windows = (options.platform ?? process.platform) === 'win32';
  const suffixes = windows ? ['', ...(options.pathExt ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  for (const dir of dirs) {
    if (dir === '' || !isAbsolute(dir)) continue;
    for (const suffix of suffixes) {
      const candidate = join(dir, name + suffix);
      if (isExecutableFile(candidate, windows) && !isEmptyRustupProxy(candidate, name, options)) return candidate;
    }
  }
  return undefined;
}

function isExecutableFile(path: string, windows: boolean): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (!windows) accessSync(path, constants.X_OK);
    return true;
  } catch {
    // Missing, unreadable or not executable: not a candidate.
    return false;
  }
}

/**
 * rustup installs proxies (`~/.cargo/bin/rust-analyzer` → `rustup`) that fail with "Unknown
 * binary" unless a toolchain has the component; such a proxy is skipped so a real binary later
 * on PATH (e.g. Debian's) is found.
 * @param path an executable found on PATH
 * @param name the name looked for
 * @param options detection options (`rustupHome`)
 * @returns whether it is a rustup proxy with no toolchain providing `name`
 */
export function isEmptyRustupProxy(path: string, name: string, options: DetectOptions): boolean {
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    // Unresolvable link: not a proxy we can judge; keep it.
    return false;
  }
  if (!/^rustup(\.exe)?$/i.test(basename(target)) || name === 'rustup') return false;
  const toolchains = join(options.rustupHome ?? join(homedir(), '.rustup'), 'toolchains');
  try {
    return !readdirSync(toolchains).some((toolchain) => existsSync(join(toolchains, toolchain, 'bin', name)));
  } catch {
    // No toolchains directory: the proxy cannot run anything.
    return true;
  }
}

/**
 * Finds installed servers among the presets: per group, the first preset with an installed
 * executable, skipping ids the user dropped (`null`) and groups where the user named their own
 * server (an override with a `command`).
 * @param options where to look
 * @param overrides the user's overrides, if any
 * @returns preset id → raw entry with the found `command`
 */
export function detectServers(options: DetectOptions, overrides: ServerOverrides = {}): Record<string, Partial<ServerConfig>> {
  const found: Record<string, Partial<ServerConfig>> = {};
  const decided = new Set<string>();
  for (const preset of SERVER_PRESETS) {
    const user = overrides[preset.id];
    if (user?.command !== undefined) decided.add(preset.group);
  }
  for (const preset of SERVER_PRESETS) {
    if (decided.has(preset.group) || overrides[preset.id] === null) continue;
    const command = firstInstalled(preset, options);
    if (command === undefined) continue;
    found[preset.id] = { ...preset.entry, command };
    decided.add(preset.group);
  }
  return found;
}

function firstInstalled(preset: ServerPreset, options: DetectOptions): string | undefined {
  for (const name of preset.executables) {
    const path = findExecutable(name, options);
    if (path !== undefined) return path;
  }
  return undefined;
}

/**
 * Reads a `--servers` file (JSON or YAML; either the table itself or `{ servers: {…} }`).
 * Relative `command` paths are resolved against the file's directory.
 * @param file path of the file
 * @returns the overrides
 * @throws Error naming the file when it cannot be read or is not a table of entries
 */
export function loadServerOverrides(file: string): ServerOverrides {
  let raw: unknown;
  try {
    raw = yaml().parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read servers file ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (isRecord(raw) && Object.keys(raw).length === 1 && isRecord(raw['servers'])) raw = raw['servers'];
  if (!isRecord(raw)) throw new Error(`servers file ${file} must map server ids to entries`);
  const out: ServerOverrides = {};
  for (const [id, entry] of Object.entries(raw)) {
    if (entry === null || entry === false) {
      out[id] = null;
      continue;
    }
    if (!isRecord(entry)) throw new Error(`servers file ${file}: "${id}" must be an entry object or null`);
    const command = entry['command'];
    out[id] =
      typeof command === 'string' && !isAbsolute(command) && /[\\/]/.test(command)
        ? { ...entry, command: resolve(dirname(file), command) }
        : (entry as Partial<ServerConfig>);
  }
  return out;
}

/** Settings bags merged key by key (recursively); every other field given replaces the preset's. */
const DEEP_MERGED = new Set(['initializationOptions', 'configuration', 'env']);

/**
 * @param base a preset entry
 * @param override the user's fields
 * @returns the entry with the override applied: settings bags merged, other fields replaced
 */
export function mergeEntry(base: Partial<ServerConfig>, override: Partial<ServerConfig>): Partial<ServerConfig> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const prior = out[key];
    out[key] = DEEP_MERGED.has(key) && isRecord(prior) && isRecord(value) ? deepMerge(prior, value) : value;
  }
  return out as Partial<ServerConfig>;
}

function deepMerge(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const prior = out[key];
    out[key] = isRecord(prior) && isRecord(value) ? deepMerge(prior, value) : value;
  }
  return out;
}

/**
 * Merges overrides over the base table per server id (see {@link mergeEntry}), drops `null`s, validates every entry against the plugin's schema.
 * An override without `command` for a server that is not in the base table is left out
 * (it tunes a preset that is not installed). An override with `command` naming a preset id the
 * base table lacks (the preset was not found installed) starts from that preset's entry, so
 * `{pyright: {command: '/abs/pyright-langserver'}}` still routes `.py` files to it.
 * @param base embedded + detected entries
 * @param overrides the user's overrides
 * @returns validated entries
 * @throws Error naming the server id and the schema's complaint
 */
export function mergeServers(
  base: Record<string, Partial<ServerConfig>>,
  overrides: ServerOverrides,
): Record<string, ServerConfig> {
  const merged: Record<string, Partial<ServerConfig>> = { ...base };
  for (const [id, entry] of Object.entries(overrides)) {
    if (entry === null) {
      delete merged[id];
    } else if (merged[id] !== undefined || entry.command !== undefined) {
      merged[id] = mergeEntry(merged[id] ?? presetEntry(id), entry);
    }
  }
  const out: Record<string, ServerConfig> = {};
  for (const [id, entry] of Object.entries(merged)) {
    try {
      out[id] = ServerConfigSchema(entry as ServerConfig);
    } catch (error) {
      throw new Error(`server "${id}": ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  return out;
}

/**
 * The CLI's server table: embedded TypeScript, detected presets, the user's overrides.
 * @param options where to look for installed servers
 * @param overrides the user's `--servers` overrides
 * @param typescript the TypeScript entry to start from instead of the embedded one (a
 *   TypeScript 7 workspace's native server); the user's overrides still merge over it
 * @returns the validated table and the detected preset ids
 */
export function resolveServers(options: DetectOptions, overrides: ServerOverrides = {}, typescript?: ServerConfig): ResolvedServers {
  const detected = detectServers(options, overrides);
  const base: Record<string, Partial<ServerConfig>> = { [EMBEDDED_TYPESCRIPT_ID]: typescript ?? embeddedTypeScriptServer(), ...detected };
  return { servers: mergeServers(base, overrides), detected: Object.keys(detected) };
}

/**
 * @param id a server id
 * @returns the preset entry of that id, or an empty entry for an id no preset has
 */
function presetEntry(id: string): Partial<ServerConfig> {
  return SERVER_PRESETS.find((preset) => preset.id === id)?.entry ?? {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
