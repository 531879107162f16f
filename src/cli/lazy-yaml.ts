/**
 * The `yaml` package, loaded on first use: only a `--servers` file and `serve --print-config`
 * need it, and loading its ~70 modules cost 25–55 ms of every `check` start (measured, Node 22,
 * no compile cache). Synchronous (its Node entry is CommonJS), so its callers stay synchronous.
 */
import { createRequire } from 'node:module';

let loaded: typeof import('yaml') | undefined;

/** @returns the `yaml` module */
export function yaml(): typeof import('yaml') {
  loaded ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return loaded;
}
