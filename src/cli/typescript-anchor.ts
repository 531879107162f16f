/**
 * Where `check` starts the TypeScript server of its first path: the program's config, or the
 * file. Used before the boot (decision 0113: the server started ahead) and after it (the engine's
 * own start), so both ask for the same process.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseJsonc } from './jsonc.ts';
import type { CheckCommand } from './parse-args.ts';
import { ancestorConfigs, CONFIG_NAMES } from './typescript-programs.ts';

/** The TypeScript server's roots for `check`: one server per program, not per package.json. */
export const PROGRAM_ROOT_MARKERS = ['tsconfig.json', 'jsconfig.json'];

/**
 * @param cmd the command (its first path)
 * @param cwd where relative paths start
 * @param workspace the workspace root
 * @param isTypeScriptFile whether the TypeScript server handles a file
 * @returns the file or config the first path's TypeScript server is started for: a directory's
 *   own tsconfig/jsconfig (none for a solution's root config), else its nearest ancestor's; a
 *   file the server handles; undefined when there is none
 */
export function typeScriptAnchor(cmd: CheckCommand, cwd: string, workspace: string, isTypeScriptFile: (path: string) => boolean): string | undefined {
  const first = resolve(cwd, cmd.paths[0] ?? '.');
  if (!existsSync(first)) return undefined;
  if (statSync(first).isDirectory()) {
    const own = CONFIG_NAMES.map((name) => join(first, name)).find((path) => existsSync(path));
    if (own !== undefined && solutionOnly(own)) return undefined;
    return own ?? ancestorConfigs(first, workspace, existsSync)[0];
  }
  return isTypeScriptFile(first) ? first : undefined;
}

/** @returns whether the config lists no file of its own (`"files": []`, no `include`): a solution's root */
function solutionOnly(config: string): boolean {
  try {
    const parsed = parseJsonc(readFileSync(config, 'utf8')) as { files?: unknown; include?: unknown } | null;
    return Array.isArray(parsed?.files) && parsed.files.length === 0 && parsed.include === undefined;
  } catch {
    return false;
  }
}
