/**
 * Makes the cordis Loader resolve plugin names the way DSH launchers do: relative to the
 * including file's directory, with Node's own ESM resolver (node_modules walk, package
 * self-reference, `exports` conditions).
 *
 * The Loader imports a row through Node's internal ESM loader when the process can reach it
 * (`--expose-internals`, or the `node-addon-require-builtin` addon DSH launchers ship). A plain
 * `node` cannot, and the Loader then falls back to `import(name)` from its own file: a bare name
 * in a user's cordis.yml would resolve from the Loader's install location instead of the
 * config's directory. This module gives the Loader the one method it uses
 * (`import(specifier, parentURL)`) with the internal loader's semantics, through a synchronous
 * `module.registerHooks` resolve hook.
 */
import { registerHooks } from 'node:module';
import type { Loader, ModuleLoader } from '@deepseek-ai/cordis-plugin-loader';

const SCHEME = 'dsh-lsp-actions-import:';
let installed = false;

function installHook(): void {
  if (installed) return;
  installed = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (!specifier.startsWith(SCHEME)) return nextResolve(specifier, context);
      const query = new URLSearchParams(specifier.slice(SCHEME.length + 1));
      const target = query.get('specifier');
      const parentURL = query.get('parent');
      if (target === null || parentURL === null) throw new Error(`malformed plugin import ${specifier}`);
      return nextResolve(target, { ...context, parentURL });
    },
  });
}

/**
 * @param specifier a bare name, a relative path or a URL
 * @param parentURL the importing location (for the Loader: the including file's directory URL)
 * @returns the module namespace, resolved exactly as an `import` written at `parentURL`
 */
export async function importFrom(specifier: string, parentURL: string): Promise<unknown> {
  installHook();
  return import(`${SCHEME}?${new URLSearchParams({ specifier, parent: parentURL }).toString()}`);
}

/**
 * Gives the Loader the importer above when it has no access to Node's internal loader.
 * @param loader the Loader service
 * @returns whether the importer was installed (false: the internal loader is used)
 */
export function useConfigRelativeImports(loader: Loader): boolean {
  if (loader.internal !== undefined) return false;
  loader.internal = {
    version: 'v1',
    import: (specifier: string, parentURL: string) => importFrom(specifier, parentURL),
  } as unknown as ModuleLoader;
  return true;
}
