/**
 * Which `dsh-lsp-actions` executable serves a workspace folder: the `dshLspActions.serverPath`
 * setting (User settings only — it is machine-scoped) when set, else the folder's
 * `node_modules/.bin/dsh-lsp-actions` (only once the user allowed it for that folder: it is code
 * the opened folder brings), else the first `dsh-lsp-actions` on `PATH`. Pure: the file checks
 * come in as a function.
 */
import { delimiter, isAbsolute, join } from 'node:path';

/** Where the executable was found. */
export type BackendSource = 'setting' | 'workspace' | 'path';

/** A resolved backend executable. */
export interface ResolvedBackend {
  command: string;
  source: BackendSource;
}

/** What resolution looks at. */
export interface ResolutionInput {
  /** `dshLspActions.serverPath` from the User (machine) settings only ('' when unset). */
  serverPath: string;
  /** Whether the folder's own `node_modules/.bin` may be used (the user allowed it, or not asked yet). */
  allowWorkspace?: boolean;
  /** The workspace folder's absolute path. */
  folder: string;
  /** The extension host's `PATH`. */
  pathEnv: string | undefined;
  /** Whether a file exists and is executable. */
  isExecutable: (file: string) => boolean;
}

/** The executable's name. */
export const BACKEND_NAME = 'dsh-lsp-actions';

/**
 * @param input the setting, folder, PATH and a file check
 * @returns the executable, or a reason why none was found
 */
export function resolveBackend(input: ResolutionInput): ResolvedBackend | { missing: string } {
  const setting = input.serverPath.trim();
  if (setting !== '') {
    const command = isAbsolute(setting) ? setting : join(input.folder, setting);
    if (input.isExecutable(command)) return { command, source: 'setting' };
    return { missing: `dshLspActions.serverPath is set to ${setting}, but ${command} is not an executable file` };
  }
  const local = join(input.folder, 'node_modules', '.bin', BACKEND_NAME);
  if (input.allowWorkspace !== false && input.isExecutable(local)) return { command: local, source: 'workspace' };
  for (const dir of (input.pathEnv ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, BACKEND_NAME);
    if (input.isExecutable(candidate)) return { command: candidate, source: 'path' };
  }
  return {
    missing:
      input.allowWorkspace === false && input.isExecutable(local)
        ? `${local} was not allowed to run, and no ${BACKEND_NAME} is set in dshLspActions.serverPath or on PATH`
        : `${BACKEND_NAME} was found neither in dshLspActions.serverPath, nor in ${local}, nor on PATH`,
  };
}

/**
 * @param folder the workspace folder
 * @param sandbox the `dshLspActions.sandbox` setting
 * @returns the `serve` arguments
 */
export function serveArgs(folder: string, sandbox: string): string[] {
  return ['serve', '--workspace', folder, '--sandbox', sandbox];
}
