/**
 * The Python file set as `pyright` decides it: the pyright configuration that governs a directory
 * (`pyrightconfig.json`, else `[tool.pyright]` in `pyproject.toml`, in the directory or its
 * nearest ancestor up to the workspace root — where `pyright` run in that directory finds it;
 * `pyrightconfig.json` wins in one directory, as in pyright) and its `include`, `exclude` and
 * `ignore`:
 *
 * - `include` (default: the config's directory) and `exclude` (default `**\/node_modules`,
 *   `**\/__pycache__`, `**\/.*`) are paths relative to the config's directory with pyright's
 *   wildcards — `**` any number of directories, `*` any characters within one name, `?` one
 *   character; a path selects itself and everything below it;
 * - `ignore`: files whose diagnostics pyright suppresses — not reported, so not checked here.
 *
 * A file outside the scope is skipped with a note, like a TypeScript file in no program.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { isInside } from './check-file-set.ts';
import { parseJsonc } from './jsonc.ts';

/** The extensions pyright checks. */
export const PYTHON_FILE = /\.pyi?$/;

/** One pyright configuration. */
export interface PyrightScope {
  /** The config file (`pyrightconfig.json` or `pyproject.toml`). */
  configPath: string;
  include: RegExp[];
  exclude: RegExp[];
  ignore: RegExp[];
}

const DEFAULT_EXCLUDE = ['**/node_modules', '**/__pycache__', '**/.*'];

/**
 * @param dir an absolute directory (a given path)
 * @param workspace the workspace root (the search stops there)
 * @returns the scope governing `dir`, or undefined when no pyright configuration is found
 * @throws Error naming the file when a config cannot be read or parsed
 */
export function findPyrightScope(dir: string, workspace: string): PyrightScope | undefined {
  let current = dir;
  for (;;) {
    const scope = scopeIn(current);
    if (scope !== undefined) return scope;
    const parent = dirname(current);
    if (current === workspace || parent === current || !isInside(workspace, parent)) return undefined;
    current = parent;
  }
}

/**
 * `smol-toml`'s parser, loaded on first use (its CommonJS build, one file): only a tree with a
 * `pyproject.toml` needs it, and `check` plans before it loads anything it can leave for later.
 */
let tomlParse: ((text: string) => unknown) | undefined;
function parseToml(text: string): unknown {
  tomlParse ??= (createRequire(import.meta.url)('smol-toml') as { parse: (text: string) => unknown }).parse;
  return tomlParse(text);
}

function scopeIn(dir: string): PyrightScope | undefined {
  const json = join(dir, 'pyrightconfig.json');
  if (existsSync(json)) return scopeOf(json, readJsonc(json));
  const toml = join(dir, 'pyproject.toml');
  if (!existsSync(toml)) return undefined;
  let doc: unknown;
  try {
    doc = parseToml(readFileSync(toml, 'utf8'));
  } catch (error) {
    throw new Error(`${toml}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const tool = isRecord(doc) && isRecord(doc['tool']) ? doc['tool'] : undefined;
  const pyright = tool !== undefined && isRecord(tool['pyright']) ? tool['pyright'] : undefined;
  return pyright === undefined ? undefined : scopeOf(toml, pyright);
}

function scopeOf(configPath: string, settings: Record<string, unknown>): PyrightScope {
  const root = dirname(configPath);
  const list = (key: string, fallback: string[]): string[] => {
    const value = settings[key];
    if (value === undefined) return fallback;
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new Error(`${configPath}: "${key}" must be a list of paths`);
    return value;
  };
  const compile = (specs: string[]): RegExp[] => specs.map((spec) => specToRegExp(root, spec));
  return { configPath, include: compile(list('include', ['.'])), exclude: compile(list('exclude', DEFAULT_EXCLUDE)), ignore: compile(list('ignore', [])) };
}

/**
 * @param root the config's directory
 * @param spec an include/exclude path with pyright's wildcards
 * @returns a pattern matching the path and everything below it
 */
export function specToRegExp(root: string, spec: string): RegExp {
  const absolute = resolve(root, spec).split(sep).join('/');
  let pattern = '';
  for (const part of absolute.split('/').filter((p, i) => p !== '' || i === 0)) {
    if (part === '**') {
      pattern += '(?:[^/]*/)*';
      continue;
    }
    pattern += `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}/`;
  }
  return new RegExp(`^${pattern.replace(/\/$/, '')}(?:$|/)`);
}

/**
 * @param scope a pyright configuration
 * @param file an absolute path
 * @returns whether `pyright` checks and reports the file
 */
export function pyrightChecks(scope: PyrightScope, file: string): boolean {
  const path = file.split(sep).join('/');
  const matches = (patterns: RegExp[]): boolean => patterns.some((re) => re.test(path));
  return matches(scope.include) && !matches(scope.exclude) && !matches(scope.ignore);
}

function readJsonc(path: string): Record<string, unknown> {
  try {
    // pyright reads its config as JSON with comments and trailing commas.
    const value = parseJsonc(readFileSync(path, 'utf8'));
    if (!isRecord(value)) throw new Error('not an object');
    return value;
  } catch (error) {
    throw new Error(`${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
