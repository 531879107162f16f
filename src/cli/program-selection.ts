/**
 * Which of the programs found under `check`'s paths are checked — the compiler's own boundaries:
 *
 * - a directory with a `tsconfig.json` in it (else a `jsconfig.json`): that program and the
 *   programs it references, transitively — what `tsc -b` builds. Every file of them is checked,
 *   inside the directory or not. Other programs nested below the directory — a `jsconfig.json`
 *   next to the `tsconfig.json` too, which `tsc -b` never reads — are skipped and named
 *   (`--all-programs` checks them too);
 * - a directory without one: every program found below it (references followed, whole), plus
 *   the programs of its ancestors up to the workspace root, narrowed to the files inside the
 *   directory — as before this rule (decision 0030);
 * - `--all-programs`: every program found, as in the second case.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isInside } from './check-file-set.ts';
import { CONFIG_NAMES, type TsProgram } from './typescript-programs.ts';

/** What {@link selectPrograms} decides. */
export interface ProgramSelection {
  /** Programs checked, in discovery order. */
  selected: TsProgram[];
  /** Config paths of programs checked whole (every file, wherever it is). */
  whole: Set<string>;
  /** Programs found but not checked (nested under a directory whose own tsconfig does not reference them). */
  skipped: TsProgram[];
}

/**
 * @param dir an absolute directory
 * @param exists whether a file exists
 * @returns the directory's own program: its `tsconfig.json` (what `tsc -b DIR` builds), else its
 *   `jsconfig.json`; none when it has neither
 */
export function ownConfigs(dir: string, exists: (path: string) => boolean = existsSync): string[] {
  const own = CONFIG_NAMES.map((name) => join(dir, name)).find((path) => exists(path));
  return own === undefined ? [] : [own];
}

/**
 * @param programs every program parsed (configs found by the walk, ancestors, references followed)
 * @param dirs the given directories (absolute)
 * @param allPrograms `--all-programs`
 * @param exists whether a file exists
 * @returns the selection
 */
export function selectPrograms(programs: readonly TsProgram[], dirs: readonly string[], allPrograms: boolean, exists: (path: string) => boolean = existsSync): ProgramSelection {
  const byConfig = new Map(programs.map((program) => [program.configPath, program]));
  const roots: string[] = [];
  const bounded: string[] = [];
  for (const dir of dirs) {
    const own = allPrograms ? [] : ownConfigs(dir, exists).filter((config) => byConfig.has(config));
    if (own.length > 0) {
      bounded.push(dir);
      roots.push(...own);
      continue;
    }
    for (const program of programs) {
      // Found below the directory, or an ancestor's program (narrowed to the directory).
      if (isInside(dir, program.configPath) || isInside(dirname(program.configPath), dir)) roots.push(program.configPath);
    }
  }
  const reached = new Set<string>();
  const whole = new Set<string>();
  const visit = (config: string, isWhole: boolean): void => {
    if (reached.has(config) && (whole.has(config) || !isWhole)) return;
    reached.add(config);
    if (isWhole) whole.add(config);
    for (const reference of byConfig.get(config)?.references ?? []) visit(reference, isWhole);
  };
  for (const root of roots) visit(root, dirs.some((dir) => isInside(dir, root)));
  const selected = programs.filter((program) => reached.has(program.configPath));
  const skipped = programs.filter((program) => !reached.has(program.configPath) && bounded.some((dir) => isInside(dir, program.configPath)));
  return { selected, whole, skipped };
}
