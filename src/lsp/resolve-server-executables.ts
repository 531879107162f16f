/**
 * Load-time resolution of every configured server executable through the harness subprocess
 * seam, so a wrong `command` fails the plugin load naming the key instead of the first call.
 * A default server the plugin added itself (the embedded TypeScript server) is resolved
 * leniently: in an execution world that cannot see this host's install (a sandbox, a remote
 * machine) it is marked unavailable instead, so the plugin still loads and every request routed
 * to it answers with an error naming what is missing and how to configure it.
 */
import type { SubprocessRuntime } from '@deepseek-ai/dsh-subprocess';
import type { Config } from '../config.ts';
import { ActionError } from '../errors.ts';

/** What load-time resolution found. */
export interface ResolvedExecutables {
  /** server id → absolute, canonical executable path */
  executables: Map<string, string>;
  /** server id → the error every request routed to it answers with (lenient ids only) */
  unavailable: Map<string, ActionError>;
}

/**
 * @param config the validated plugin config
 * @param subprocess the harness subprocess service (`resolveExecutable` only)
 * @param signal cancels the lookups
 * @returns server id → absolute, canonical executable path
 * @throws ActionError `LSP_ACTION_CONFIG_INVALID` naming `servers.<id>.command`
 */
export async function resolveServerExecutables(
  config: Config,
  subprocess: Pick<SubprocessRuntime, 'resolveExecutable'>,
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  return (await resolveServerExecutablesLeniently(config, subprocess, new Set(), signal)).executables;
}

/**
 * @param config the validated plugin config
 * @param subprocess the harness subprocess service (`resolveExecutable` only)
 * @param lenient ids of servers the plugin added by default: unresolvable means unavailable, not a failed load
 * @param signal cancels the lookups
 * @returns the resolved executables and the unavailable default servers
 * @throws ActionError `LSP_ACTION_CONFIG_INVALID` naming `servers.<id>.command` for a server the user configured
 */
export async function resolveServerExecutablesLeniently(
  config: Config,
  subprocess: Pick<SubprocessRuntime, 'resolveExecutable'>,
  lenient: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<ResolvedExecutables> {
  const executables = new Map<string, string>();
  const unavailable = new Map<string, ActionError>();
  for (const [serverId, entry] of Object.entries(config.servers)) {
    try {
      executables.set(serverId, await subprocess.resolveExecutable(entry.command, entry.env, signal));
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      const what = `servers.${serverId}.command: cannot resolve ${JSON.stringify(entry.command)} to an executable (${reason})`;
      if (!lenient.has(serverId)) throw new ActionError('LSP_ACTION_CONFIG_INVALID', what, { serverId }, { cause: error });
      unavailable.set(
        serverId,
        new ActionError(
          'LSP_ACTION_CONFIG_INVALID',
          `default server "${serverId}" is not available in this execution world: ${what}. ` +
            `Configure servers.${serverId} with a language server installed where the plugin's processes run ` +
            `(for TypeScript: command "typescript-language-server", args ["--stdio"]), or set embeddedTypeScript: false; see docs/plugin.md`,
          { serverId, command: entry.command },
          { cause: error },
        ),
      );
    }
  }
  return { executables, unavailable };
}
