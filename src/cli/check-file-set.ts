/**
 * Which files `check PATH…` looks at — the compiler's file set:
 *
 * - TypeScript/JavaScript files (those the TypeScript server handles): the root files of the
 *   `tsconfig.json` / `jsconfig.json` programs covering the paths ({@link parsePrograms}), inside
 *   the paths, plus files named explicitly. A file in no program is skipped and counted, unless
 *   `--include-unconfigured`. When no program covers the paths at all, there is no compiler file
 *   set to follow and every such file is checked (in tsserver's inferred projects). What a
 *   program imports from outside its `include` is added after its files are checked, from the
 *   server's own file list ({@link importedOutsideInclude}).
 * - Every other file the walk finds (Python, shell, …): as before; the server decides.
 * - The walk never enters `node_modules`, VCS directories, Python caches and virtual
 *   environments, nor what the project's `.gitignore` ignores (asked from git); a program's own
 *   files are checked even when ignored, as `tsc` checks them.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { ReportDiagnostic } from './check-report.ts';
import { collectFiles } from './collect-files.ts';
import { gitIgnoredPaths } from './gitignored-paths.ts';
import { inNodeModules } from './native-program-listing.ts';
import { selectPrograms } from './program-selection.ts';
import { findPyrightScope, pyrightChecks, PYTHON_FILE, type PyrightScope } from './pyright-scope.ts';
import { ancestorConfigs, CONFIG_NAMES, type TsProgram } from './typescript-programs.ts';

/** What {@link planFileSet} needs. */
export interface FileSetRequest {
  /** Paths as given (files or directories). */
  paths: readonly string[];
  cwd: string;
  /** Absolute workspace root (ancestor configs are looked for up to here). */
  workspace: string;
  /** Parses configs into programs (references followed); absent when no TypeScript server is configured. */
  parsePrograms: ((configs: string[]) => TsProgram[] | Promise<TsProgram[]>) | undefined;
  /** Whether the TypeScript server handles a file. */
  isTypeScriptFile: (path: string) => boolean;
  /** `--include-unconfigured`: check TypeScript files outside every program too. */
  includeUnconfigured: boolean;
  /** `--all-programs`: every program found under a directory, not only its own tsconfig's (see {@link selectPrograms}). */
  allPrograms?: boolean;
  /**
   * Completes the selected programs before files are chosen (a TypeScript 7 workspace: its
   * `tsc --listFilesOnly` gives each program's whole file list and early verdict).
   */
  completePrograms?: (programs: TsProgram[]) => Promise<TsProgram[]>;
  /** Told the files the walk found (before the programs are read): `check` starts the server from them. */
  onCollected?: (files: readonly string[]) => void;
}

/** The planned file set and what was left out. */
export interface FileSet {
  /** Absolute paths to check, sorted. */
  files: string[];
  /** Files given explicitly. */
  explicit: Set<string>;
  /** Directories given (absolute). */
  dirs: string[];
  /** Given paths that do not exist. */
  missing: string[];
  /** Programs checked (discovery order). */
  programs: TsProgram[];
  /** Config paths of the programs checked whole: every file, inside the paths or not. */
  whole: Set<string>;
  /** Programs found under a directory whose own tsconfig does not reference them: not checked. */
  skippedPrograms: TsProgram[];
  /** Config problems by file (a config or one it extends), in the paths or above them. */
  configErrors: Map<string, ReportDiagnostic[]>;
  /** TypeScript files in no program, not checked (empty with `--include-unconfigured`). */
  unconfigured: string[];
  /** TypeScript files in no program that are checked anyway (flag, or no program at all). */
  inferred: string[];
  /** Paths the walk skipped because `.gitignore` ignores them. */
  ignored: string[];
  /** Python files the pyright configuration governing their directory does not check (include/exclude/ignore). */
  outsidePyright: string[];
  /** The pyright configurations that decided ({@link findPyrightScope}). */
  pyrightConfigs: string[];
  /** Given directories with a `.gitignore` that git could not be asked about (not a work tree, no git). */
  gitignoreUnread: string[];
}

/**
 * @param request paths, workspace, compiler API, routing, flag
 * @returns the files to check and what was skipped
 */
export async function planFileSet(request: FileSetRequest): Promise<FileSet> {
  const dirs = request.paths.map((p) => resolve(request.cwd, p)).filter((p) => isDirectory(p));
  const ignoredSet = new Set<string>();
  const gitignoreUnread: string[] = [];
  const answers = await Promise.all(dirs.map(async (dir) => ({ dir, answer: await gitIgnoredPaths(dir) })));
  for (const { dir, answer } of answers) {
    if (!answer.known && existsSync(join(dir, '.gitignore'))) gitignoreUnread.push(dir);
    for (const path of answer.paths) ignoredSet.add(path);
  }
  const collected = collectFiles(request.paths, request.cwd, { ignored: ignoredSet });
  const python = pythonScope(collected.files, collected.explicit, dirs, request.workspace);
  if (python.outside.size > 0) collected.files = collected.files.filter((file) => !python.outside.has(file));
  request.onCollected?.(collected.files);
  const base = {
    explicit: collected.explicit,
    dirs,
    missing: collected.missing,
    ignored: collected.ignored,
    gitignoreUnread,
    outsidePyright: [...python.outside].sort(),
    pyrightConfigs: python.configs,
  };
  if (request.parsePrograms === undefined) {
    return { ...base, files: collected.files, programs: [], whole: new Set(), skippedPrograms: [], configErrors: python.errors, unconfigured: [], inferred: [] };
  }
  const configs = new Set<string>();
  for (const file of collected.files) if ((CONFIG_NAMES as readonly string[]).includes(basename(file))) configs.add(file);
  for (const dir of dirs) for (const config of ancestorConfigs(dir, request.workspace, existsSync)) configs.add(config);
  const named = [...collected.explicit].filter((file) => SCRIPT_NAME.test(file));
  for (const file of named) for (const config of ancestorConfigs(file, request.workspace, existsSync)) configs.add(config);
  const found = await request.parsePrograms([...configs]);
  const { selection, added } = withProgramsOfNamedFiles(selectPrograms(found, dirs, request.allPrograms === true), found, named, request.workspace);
  const listed = request.completePrograms === undefined ? selection.selected : await request.completePrograms(selection.selected);
  const programs = keepProgramsWithNamedFiles(listed, added, named);
  const inPaths = (file: string): boolean => dirs.some((dir) => isInside(dir, file)) || collected.explicit.has(file);
  const inProgram = new Set<string>();
  for (const program of programs) for (const file of program.files) inProgram.add(file);
  const inSkipped = new Set<string>();
  for (const program of selection.skipped) for (const file of program.files) if (!inProgram.has(file)) inSkipped.add(file);
  const files = new Set<string>();
  const unconfigured: string[] = [];
  const inferred: string[] = [];
  for (const file of collected.files) {
    if (!request.isTypeScriptFile(file) || inProgram.has(file) || collected.explicit.has(file)) {
      files.add(file);
    } else if (inSkipped.has(file)) {
      // Named with its program in the skipped programs, not as a file in no program.
    } else if (programs.length === 0 || request.includeUnconfigured) {
      files.add(file);
      inferred.push(file);
    } else {
      unconfigured.push(file);
    }
  }
  for (const program of programs) {
    const isWhole = selection.whole.has(program.configPath);
    for (const file of program.files) {
      if ((isWhole || inPaths(file)) && request.isTypeScriptFile(file) && !inNodeModules(file)) files.add(file);
    }
  }
  const configErrors = new Map<string, ReportDiagnostic[]>(python.errors);
  for (const program of programs) {
    for (const { path, diagnostic } of program.errors) {
      // a program taken for files given by name speaks of those files (and its configs) only
      if (added.has(program.configPath) && !files.has(path) && !path.endsWith('.json')) continue;
      const list = configErrors.get(path) ?? [];
      if (!list.some((d) => d.message === diagnostic.message && d.range.start.line === diagnostic.range.start.line)) list.push(diagnostic);
      configErrors.set(path, list);
    }
  }
  return { ...base, files: [...files].sort(), programs, whole: selection.whole, skippedPrograms: selection.skipped, configErrors, unconfigured, inferred };
}

/**
 * The pyright configuration of each given directory decides its Python files, as `pyright` run
 * there decides them; a file named explicitly is always checked.
 */
function pythonScope(
  files: readonly string[],
  explicit: ReadonlySet<string>,
  dirs: readonly string[],
  workspace: string,
): { outside: Set<string>; configs: string[]; errors: Map<string, ReportDiagnostic[]> } {
  const outside = new Set<string>();
  const configs: string[] = [];
  const errors = new Map<string, ReportDiagnostic[]>();
  for (const dir of dirs) {
    let scope: PyrightScope | undefined;
    try {
      scope = findPyrightScope(dir, workspace);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const path = message.slice(0, message.indexOf(': ')) || dir;
      const start = { line: 0, character: 0 };
      errors.set(path, [{ severity: 'error', range: { start, end: start }, message, source: 'pyright' }]);
      continue;
    }
    if (scope === undefined) continue;
    if (!configs.includes(scope.configPath)) configs.push(scope.configPath);
    for (const file of files) {
      if (PYTHON_FILE.test(file) && !explicit.has(file) && isInside(dir, file) && !pyrightChecks(scope, file)) outside.add(file);
    }
  }
  return { outside, configs, errors };
}

/**
 * Files a program checks that the plan did not list: what its files import from outside its
 * `include` (`tsc -p` reports errors in them, so `check` does too), inside the given paths. Never
 * a file under `node_modules` (the default libraries and packages are not the project's source).
 * @param fileSet the plan
 * @param listed the program's files as its server lists them (root files, imports, libraries)
 * @param isTypeScriptFile whether the TypeScript server handles a file
 * @param planned files already checked
 * @param whole the program is checked whole (its config is inside the paths): its files outside the paths count too
 * @returns absolute paths to check as well, sorted
 */
export function importedOutsideInclude(
  fileSet: Pick<FileSet, 'dirs' | 'explicit'>,
  listed: readonly string[],
  isTypeScriptFile: (path: string) => boolean,
  planned: ReadonlySet<string>,
  whole = false,
): string[] {
  const out = new Set<string>();
  for (const name of listed) {
    const file = resolve(name);
    if (planned.has(file) || inNodeModules(file) || !isTypeScriptFile(file)) continue;
    if (!whole && !fileSet.explicit.has(file) && !fileSet.dirs.some((dir) => isInside(dir, file))) continue;
    out.add(file);
  }
  return [...out].sort();
}

/** TypeScript/JavaScript sources by name (files are classified by the booted routing later). */
const SCRIPT_NAME = /\.[cm]?[jt]sx?$/;

/**
 * A file given by name is judged in its program, as `tsc -p` judges it (the syntax-first rule,
 * the program's listing): the nearest tsconfig/jsconfig program that has the file — or, when the
 * programs' files are not known before their listing (TypeScript 7), the nearest program, kept
 * only if its listing has the file ({@link keepProgramsWithNamedFiles}). Narrowed to the files
 * named (not checked whole). A file no program has stays a file in no program.
 * @param selection the programs the directories selected
 * @param found every program parsed (the named files' ancestor configs included)
 * @param named source files given by name
 * @param workspace the workspace root
 * @returns the selection with the named files' programs added (and not skipped), and which were added
 */
export function withProgramsOfNamedFiles(
  selection: ReturnType<typeof selectPrograms>,
  found: readonly TsProgram[],
  named: readonly string[],
  workspace: string,
): { selection: ReturnType<typeof selectPrograms>; added: Set<string> } {
  const selected = [...selection.selected];
  const added = new Set<string>();
  for (const file of named) {
    if (selected.some((program) => program.files.includes(file))) continue;
    const nearest = ancestorConfigs(file, workspace, existsSync)
      .map((config) => found.find((program) => program.configPath === config))
      .find((program) => program !== undefined && (program.files.includes(file) || (program.files.length === 0 && program.complete !== true)));
    if (nearest === undefined || selected.includes(nearest)) continue;
    added.add(nearest.configPath);
    selected.push(nearest);
  }
  if (added.size === 0) return { selection, added };
  return { selection: { ...selection, selected, skipped: selection.skipped.filter((program) => !added.has(program.configPath)) }, added };
}

/**
 * @param programs the programs, listed
 * @param added the programs {@link withProgramsOfNamedFiles} added
 * @param named the files given by name
 * @returns the programs without an added one whose files hold none of the named files
 */
export function keepProgramsWithNamedFiles(programs: TsProgram[], added: ReadonlySet<string>, named: readonly string[]): TsProgram[] {
  if (added.size === 0) return programs;
  return programs.filter((program) => !added.has(program.configPath) || named.some((file) => program.files.includes(file)));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // Missing: collectFiles reports it.
    return false;
  }
}

/**
 * @param dir an absolute directory
 * @param path an absolute path
 * @returns whether `path` is `dir` or below it
 */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
}
