/**
 * Load-time resolution of every configured server executable through the harness subprocess
 * seam, so a wrong `command` fails the plugin load naming the key instead of the first call.
 */
import type { SubprocessRuntime } from '@deepseek-ai/dsh-subprocess';
import type { Config } from '../config.ts';
import { ActionError } from '../errors.ts';

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
  const out = new Map<string, string>();
  for (const [serverId, entry] of Object.entries(config.servers)) {
    try {
      out.set(serverId, await subprocess.resolveExecutable(entry.command, entry.env, signal));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ActionError(
        'LSP_ACTION_CONFIG_INVALID',
        `servers.${serverId}.command: cannot resolve ${JSON.stringify(entry.command)} to an executable (${reason})`,
        { serverId },
        { cause: error },
      );
    }
  }
  return out;
}
