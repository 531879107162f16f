/**
 * Which TypeScript `check` (and `serve`, for TypeScript 7) runs: the workspace's own (the one its
 * `tsc` is), else the embedded one (this package's TypeScript 5.9.3). `--typescript` overrides the
 * choice: `embedded`, `workspace`, or a path to a TypeScript package directory or its
 * `lib/tsserver.js`.
 *
 * The workspace's TypeScript is found the way Node resolves `typescript` from the workspace root:
 * the first `node_modules/typescript` in the root or one of its ancestors. Two kinds are usable:
 * - `tsserver`: 4.0 ({@link MIN_TYPESCRIPT}) to 6.x, with `lib/tsserver.js`, driven by
 *   typescript-language-server;
 * - `native`: TypeScript 7 and newer, whose own language server (`tsc --lsp --stdio`, the native
 *   binary of its `@typescript/typescript-<platform>-<arch>` package, or the package's JS
 *   wrapper run by Node when the binary is not installed) is used directly. It is never replaced
 *   by the embedded 5.9 (another compiler's verdict): see docs/decisions/0031-typescript-7-native-server.md.
 * Detection reads files only; nothing of the workspace runs until the server starts.
 */
import { createRequire } from 'node:module';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Oldest TypeScript accepted from a workspace. typescript-language-server 5.3.0 declares no
 * minimum; its feature gates start at TypeScript 3.x. 4.0 is our floor (the 4.x tsserver protocol,
 * tested with 4.9.5 in tests/cli/check-compiler-parity.e2e.ts).
 */
export const MIN_TYPESCRIPT = { major: 4, minor: 0 } as const;

/** Where the TypeScript in use comes from. */
export type TypeScriptSource = 'workspace' | 'embedded' | 'user';

/** How a TypeScript is driven: its tsserver through typescript-language-server, or its own native LSP. */
export type TypeScriptKind = 'tsserver' | 'native';

/** The TypeScript a run uses. */
export interface TypeScriptChoice {
  source: TypeScriptSource;
  kind: TypeScriptKind;
  /** Its `package.json` version. */
  version: string;
  /** The package directory (holds `lib/tsserver.js` and `lib/typescript.js`, or TypeScript 7's `bin/tsc`). */
  packageDir: string;
  /**
   * `tsserver`: `lib/tsserver.js`, given to typescript-language-server as `tsserver.path`.
   * `native`: the `tsc` executable run as `tsc --lsp --stdio` (the native binary, or `bin/tsc`
   * run by Node — see {@link nativeCommand}).
   */
  serverPath: string;
  /** Why a workspace TypeScript that was found is not used (embedded fallback). */
  rejected?: string;
}

/** `--typescript` values other than a path. */
export const TYPESCRIPT_CHOICES = ['auto', 'embedded', 'workspace'] as const;

/**
 * @param packageDir a directory that may hold a TypeScript package
 * @returns its version and tsserver path, or why it cannot be driven
 */
export function inspectTypeScript(packageDir: string): { version: string; kind: TypeScriptKind; serverPath: string } | { problem: string } {
  let version: unknown;
  try {
    version = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version?: unknown }).version;
  } catch {
    // Missing or unreadable package.json: not a usable TypeScript.
    return { problem: `${packageDir} has no readable package.json` };
  }
  if (typeof version !== 'string') return { problem: `${packageDir}/package.json has no version` };
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (major >= NATIVE_MAJOR) {
    const native = nativeExecutable(packageDir);
    if (native === undefined) return { problem: `TypeScript ${version} at ${packageDir} has neither its native tsc nor bin/tsc` };
    return { version, kind: 'native', serverPath: native };
  }
  const tsserverPath = join(packageDir, 'lib', 'tsserver.js');
  if (!existsSync(tsserverPath)) return { problem: `TypeScript ${version} at ${packageDir} has no lib/tsserver.js` };
  if (major < MIN_TYPESCRIPT.major || (major === MIN_TYPESCRIPT.major && minor < MIN_TYPESCRIPT.minor)) {
    return { problem: `TypeScript ${version} at ${packageDir} is older than ${MIN_TYPESCRIPT.major}.${MIN_TYPESCRIPT.minor}` };
  }
  return { version, kind: 'tsserver', serverPath: tsserverPath };
}

/** The first TypeScript major with no tsserver and its own native language server. */
export const NATIVE_MAJOR = 7;

/**
 * @param packageDir a TypeScript 7 package directory
 * @returns the native `tsc` of its platform package (`@typescript/typescript-<platform>-<arch>`,
 *   resolved from the package as Node would), else its `bin/tsc` JS wrapper, else undefined
 */
export function nativeExecutable(packageDir: string): string | undefined {
  const platformPackage = `@typescript/typescript-${process.platform}-${process.arch}`;
  try {
    // From the real directory, as Node resolves a package's own dependencies (pnpm links them).
    const manifest = createRequire(join(realpathSync(packageDir), 'package.json')).resolve(`${platformPackage}/package.json`);
    const exe = join(dirname(manifest), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc');
    if (existsSync(exe)) return exe;
  } catch {
    // Not installed next to the package: the wrapper finds it, or says what is missing.
  }
  const wrapper = join(packageDir, 'bin', 'tsc');
  return existsSync(wrapper) ? wrapper : undefined;
}

/**
 * @param serverPath a native choice's {@link TypeScriptChoice.serverPath}
 * @returns command and leading arguments that run it (the JS wrapper is run by this Node)
 */
export function nativeCommand(serverPath: string): { command: string; args: string[] } {
  return basename(dirname(serverPath)) === 'bin' ? { command: process.execPath, args: [serverPath] } : { command: serverPath, args: [] };
}

/**
 * @param workspace absolute workspace root
 * @returns the first `node_modules/typescript` directory from the root upwards, if any
 */
export function findWorkspaceTypeScript(workspace: string): string | undefined {
  let dir = workspace;
  for (;;) {
    const candidate = join(dir, 'node_modules', 'typescript');
    if (isDirectory(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** @returns the embedded TypeScript (this package's dependency) */
export function embeddedTypeScript(): TypeScriptChoice {
  const packageDir = dirname(require.resolve('typescript/package.json'));
  const found = inspectTypeScript(packageDir);
  if ('problem' in found) throw new Error(`the embedded TypeScript is broken: ${found.problem}`);
  return { source: 'embedded', packageDir, ...found };
}

/**
 * @param workspace absolute workspace root
 * @param option the `--typescript` value (`auto` when not given)
 * @param cwd directory a path option is relative to
 * @returns the TypeScript to use
 * @throws Error when `workspace` or a path was asked for and is not usable
 */
export function chooseTypeScript(workspace: string, option: string, cwd: string): TypeScriptChoice {
  if (option === 'embedded') return embeddedTypeScript();
  if (option !== 'auto' && option !== 'workspace') {
    const given = resolve(cwd, option);
    const packageDir = basename(given) === 'tsserver.js' || basename(given) === 'tsc' ? dirname(dirname(given)) : given;
    const found = inspectTypeScript(packageDir);
    if ('problem' in found) throw new Error(`--typescript ${option}: ${found.problem}`);
    return { source: 'user', packageDir, ...found };
  }
  const packageDir = findWorkspaceTypeScript(workspace);
  if (packageDir === undefined) {
    if (option === 'workspace') throw new Error(`--typescript workspace: no node_modules/typescript in ${workspace} or above`);
    return embeddedTypeScript();
  }
  const found = inspectTypeScript(packageDir);
  if ('problem' in found) {
    if (option === 'workspace') throw new Error(`--typescript workspace: ${found.problem}`);
    return { ...embeddedTypeScript(), rejected: found.problem };
  }
  return { source: 'workspace', packageDir, ...found };
}

/**
 * @param choice the TypeScript in use
 * @returns the stderr line naming it
 */
export function describeTypeScript(choice: TypeScriptChoice): string {
  const what = choice.source === 'workspace' ? "the workspace's" : choice.source === 'user' ? 'the given' : 'the embedded';
  const why = choice.rejected === undefined ? '' : ` (not the workspace's: ${choice.rejected})`;
  const how = choice.kind === 'native' ? ', its own language server: tsc --lsp' : '';
  return `TypeScript: ${what} ${choice.version} (${choice.serverPath}${how})${why}`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // Absent: not a candidate.
    return false;
  }
}
