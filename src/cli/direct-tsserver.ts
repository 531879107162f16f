/**
 * `check`'s TypeScript server without typescript-language-server in the middle: the embedded
 * server entry (that server run by Node, pointed at a tsserver by `initializationOptions.tsserver.path`)
 * turned into tsserver itself, run by the same Node with the flags that server would give it and
 * spoken to through our bridge (`protocol: 'tsserver'`, src/lsp/tsserver-bridge.ts). One process
 * fewer, ~73 MiB less at the peak (docs/decisions/0111-check-drives-tsserver-directly.md).
 */
import { isDeepStrictEqual } from 'node:util';
import { dirname, join } from 'node:path';
import type { ServerConfig } from '../config.ts';
import { embeddedTypeScriptServer } from '../presets/embedded-typescript.ts';
import { TSSERVER_FLAGS } from '../lsp/tsserver-host-settings.ts';
import { inspectTypeScript } from './workspace-typescript.ts';

/**
 * @param entry the `typescript` entry as merged (presets, the command's fields, the user's `--servers`)
 * @returns the entry driving its tsserver directly, or undefined when the entry is not the embedded
 *   server's (a user's own command or arguments keep their server) or names no usable tsserver
 */
export function directTsserverEntry(entry: ServerConfig): ServerConfig | undefined {
  const embedded = embeddedTypeScriptServer();
  if (entry.protocol !== 'lsp' || entry.command !== embedded.command || !isDeepStrictEqual(entry.args, embedded.args)) return undefined;
  const options = entry.initializationOptions ?? {};
  const tsserver = (options['tsserver'] ?? {}) as Record<string, unknown>;
  const path = tsserver['path'];
  if (typeof path !== 'string' || !path.endsWith('tsserver.js')) return undefined;
  const found = inspectTypeScript(join(dirname(path), '..'));
  const version = 'problem' in found ? 'unknown' : found.version;
  return {
    ...entry,
    protocol: 'tsserver',
    args: [path, ...TSSERVER_FLAGS, ...pluginFlags(options['plugins'])],
    // what typescript-language-server sets for its tsserver (plugins resolve next to TypeScript)
    env: { ...entry.env, NODE_PATH: join(path, '..', '..', '..') },
    initializationOptions: { ...options, tsserver: { ...tsserver, version } },
  };
}

/**
 * tsserver's flags for `initializationOptions.plugins` (`[{ name, location }]`), as
 * typescript-language-server passes them: `--globalPlugins` names, `--pluginProbeLocations` folders.
 * @param plugins the entry's `initializationOptions.plugins`
 * @returns the flags; none for no plugins
 */
export function pluginFlags(plugins: unknown): string[] {
  if (!Array.isArray(plugins)) return [];
  const named = plugins.filter((p): p is { name: string; location?: unknown } => typeof p === 'object' && p !== null && typeof (p as { name?: unknown }).name === 'string');
  if (named.length === 0) return [];
  const locations = [...new Set(named.map((p) => p.location).filter((l): l is string => typeof l === 'string'))];
  return ['--globalPlugins', named.map((p) => p.name).join(','), ...(locations.length === 0 ? [] : ['--pluginProbeLocations', locations.join(',')])];
}
