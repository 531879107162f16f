/**
 * Boots a `cordis.yml` in-process the way `@deepseek-ai/cordis/bin.js` does (harness-notes §3.4,
 * variant C): a root `Context`, the cordis Loader, and `cordis-plugin-include` on the file. Rows
 * are imported by the Loader itself, so a product plugin is mounted by its package name.
 *
 * Module resolution: the Loader imports a row through Node's internal ESM loader, relative to the
 * including file's directory, when the process can reach it (`--expose-internals` or the
 * `node-addon-require-builtin` addon, which DSH launchers use). Otherwise it falls back to a plain
 * `import(name)` from its own file, which resolves bare names from the Loader's install location
 * instead of the config's directory. For that case this helper gives the Loader a minimal
 * importer with the same semantics as the internal one: specifier resolved by Node's own resolver
 * with the including directory as parent (a synchronous `module.registerHooks` resolve hook).
 */
import { registerHooks } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from '@deepseek-ai/cordis';
import { Context as CordisContext } from '@deepseek-ai/cordis';
import type { ModuleLoader } from '@deepseek-ai/cordis-plugin-loader';
import { Loader } from '@deepseek-ai/cordis-plugin-loader';

/** `FiberState.ACTIVE` of cordis (a `const enum`, not present at runtime). */
export const FIBER_ACTIVE = 2;
/** `FiberState.DISPOSED` of cordis. */
export const FIBER_DISPOSED = 4;

/** State of one Loader entry after boot. */
export interface EntryStatus {
  /** Full entry id (nested ids joined with `:`). */
  id: string;
  /** The module specifier of the row. */
  name: string;
  disabled: boolean;
  /** cordis `FiberState` of the entry's fiber; undefined when it never got one. */
  state: number | undefined;
}

/** A booted composition. */
export interface LoaderBoot {
  /** The root context (services provided by rows are reachable from it). */
  ctx: Context;
  /** The Loader service. */
  loader: Loader;
  /** Whether rows are imported through the test importer (true) or Node's internal loader (false). */
  importerShim: boolean;
  /** @returns every entry of the tree, including the include row itself and nested subtrees */
  entries(): EntryStatus[];
  /** Disposes every row and the Loader (the root fiber's children). Idempotent. */
  dispose(): Promise<void>;
}

/** Options of {@link bootComposition}. */
export interface BootOptions {
  /** Upper bound for loading every row; default 60 s. */
  timeoutMs?: number;
}

const SHIM_SCHEME = 'lsp-actions-loader-import:';
let hooksInstalled = false;

/**
 * Installs (once per process) the resolve hook behind {@link importFrom}: a specifier of the form
 * `lsp-actions-loader-import:?specifier=…&parent=…` resolves `specifier` with Node's default
 * resolver as if imported from `parent`. Every other specifier passes through untouched.
 */
function installImportHook(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (!specifier.startsWith(SHIM_SCHEME)) return nextResolve(specifier, context);
      const query = new URLSearchParams(specifier.slice(SHIM_SCHEME.length + 1));
      const target = query.get('specifier');
      const parentURL = query.get('parent');
      if (target === null || parentURL === null) throw new Error(`malformed loader import ${specifier}`);
      return nextResolve(target, { ...context, parentURL });
    },
  });
}

/**
 * Imports `specifier` resolved from `parentURL`, exactly as an `import` written in a module at
 * `parentURL` would (node_modules walk, package self-reference, `exports` conditions).
 * @param specifier a bare name, a relative path or a URL
 * @param parentURL the importing location (for the Loader: the including file's directory URL)
 * @returns the module namespace
 */
export async function importFrom(specifier: string, parentURL: string): Promise<unknown> {
  installImportHook();
  return import(`${SHIM_SCHEME}?${new URLSearchParams({ specifier, parent: parentURL }).toString()}`);
}

/**
 * Boots `ymlPath` in-process: root Context → Loader → include of the file, then waits for every
 * row (`loader.await()`, which rethrows a row's startup failure). On failure everything mounted
 * so far is disposed before the error is rethrown.
 * @param ymlPath path of the `cordis.yml` (relative rows resolve from its directory)
 * @param options timeout
 * @returns the booted composition
 */
export async function bootComposition(ymlPath: string, options: BootOptions = {}): Promise<LoaderBoot> {
  const file = resolve(ymlPath);
  const ctx: Context = new CordisContext();
  ctx.baseUrl = `${pathToFileURL(dirname(file)).href}/`;
  let disposed = false;
  const dispose = async (): Promise<void> => {
    if (disposed) return;
    disposed = true;
    await ctx.fiber.dispose();
  };
  try {
    await ctx.plugin(Loader);
    const loader = ctx.loader;
    const importerShim = loader.internal === undefined;
    if (importerShim) {
      // Only `import(specifier, parentURL)` of the internal loader is used by the Loader (no HMR here).
      loader.internal = { version: 'v1', import: (specifier: string, parentURL: string) => importFrom(specifier, parentURL) } as unknown as ModuleLoader;
    }
    const timeoutMs = options.timeoutMs ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${file}: rows still loading after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([
        (async () => {
          await loader.create({ name: '@deepseek-ai/cordis-plugin-include', config: { path: file } });
          await loader.await();
        })(),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
    const entries = (): EntryStatus[] =>
      [...loader.entries()].map((entry) => ({
        id: entry.id,
        name: entry.options.name,
        disabled: entry.disabled,
        state: entry.fiber?.state,
      }));
    return { ctx, loader, importerShim, entries, dispose };
  } catch (error) {
    await dispose().catch(() => {
      // the boot error is the one worth reporting
    });
    throw error;
  }
}

