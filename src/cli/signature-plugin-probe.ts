/**
 * Where `check --watch`'s tsserver finds the declaration-signature plugin
 * (src/presets/declaration-signature-plugin.ts). tsserver loads a global plugin by *package
 * name* only, from `<probe location>/node_modules/<name>` (typescript-language-server, and
 * `check`'s tsserver bridge, pass `initializationOptions.plugins: [{ name, location }]` as
 * `--globalPlugins name --pluginProbeLocations location`); a published package cannot carry a `node_modules` folder,
 * and this package's own main is not a plugin. So a probe folder is made under the system's
 * temporary directory (never in the user's tree) holding one small CommonJS entry that
 * `require`s the plugin module of this installation (ESM, loaded by `require(esm)`: Node ≥ 22.12),
 * removed at dispose or when the process exits. See docs/decisions/0109-watch-declaration-signatures.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package name tsserver is told to load (inside the probe folder only). */
export const SIGNATURE_PLUGIN_NAME = 'dsh-lsp-actions-declaration-signatures';

/** The probe folder of one `check --watch`. */
export interface SignaturePluginProbe {
  /** The typescript-language-server `initializationOptions.plugins` entry. */
  plugin: { name: string; location: string };
  /** Removes the folder. */
  dispose: () => void;
}

/** @returns the plugin module of this installation (the `.ts` source when running from src) */
export function signaturePluginModule(): string {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`../presets/declaration-signature-plugin${extension}`, import.meta.url));
}

/**
 * @param module the plugin module to load (tests pass another)
 * @returns the probe folder, written
 */
export function signaturePluginProbe(module = signaturePluginModule()): SignaturePluginProbe {
  const location = mkdtempSync(join(tmpdir(), 'dsh-lsp-plugins-'));
  const dir = join(location, 'node_modules', SIGNATURE_PLUGIN_NAME);
  mkdirSync(dir, { recursive: true });
  // tsserver calls the module's export as the plugin factory: the ESM module's default export
  writeFileSync(join(dir, 'index.js'), `'use strict';\nconst plugin = require(${JSON.stringify(module)});\nmodule.exports = plugin.default;\n`);
  const remove = (): void => rmSync(location, { recursive: true, force: true });
  process.once('exit', remove);
  return {
    plugin: { name: SIGNATURE_PLUGIN_NAME, location },
    dispose: () => {
      process.off('exit', remove);
      remove();
    },
  };
}
