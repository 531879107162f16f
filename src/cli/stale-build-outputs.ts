/**
 * `tsc -b` judges a program after building the projects before it in the solution, so what a
 * program reads of another project's build output (its `.d.ts`) is always current. A language
 * server redirects to the source only for the projects a program *references*; a program that
 * reaches another project of the solution through a package name (a workspace symlink) and no
 * `references` entry reads that project's `.d.ts` as it is on disk — stale after a source change.
 * Such a verdict is not the compiler's: the program's files are reported `stale`, naming the
 * output, never `fresh` on old declarations. See docs/decisions/0032-project-references-from-source.md.
 */
import { statSync } from 'node:fs';
import type { TsProgram } from './typescript-programs.ts';

/** One build output a program was judged against that is older than its source. */
export interface StaleOutput {
  /** The `.d.ts` read. */
  output: string;
  /** Its source, changed since it was built. */
  source: string;
  /** The config of the project that builds it. */
  project: string;
}

/**
 * @param program the program judged
 * @param listed the files its compiler or server says it read
 * @param programs every program of the run (their declaration outputs)
 * @param mtime a file's modification time in ms (undefined when missing)
 * @returns the build outputs it read that are older than their sources
 */
export function staleOutputsRead(
  program: TsProgram,
  listed: readonly string[],
  programs: readonly TsProgram[],
  mtime: (path: string) => number | undefined = modified,
): StaleOutput[] {
  const owners = new Map<string, { source: string; project: string }>();
  for (const other of programs) {
    if (other.configPath === program.configPath) continue;
    for (const [output, source] of Object.entries(other.declarationOutputs ?? {})) owners.set(output, { source, project: other.configPath });
  }
  if (owners.size === 0) return [];
  const out: StaleOutput[] = [];
  for (const file of listed) {
    const owner = owners.get(file);
    if (owner === undefined) continue;
    const built = mtime(file);
    const changed = mtime(owner.source);
    if (built !== undefined && changed !== undefined && changed > built) out.push({ output: file, source: owner.source, project: owner.project });
  }
  return out;
}

function modified(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    // Gone: nothing to compare.
    return undefined;
  }
}
