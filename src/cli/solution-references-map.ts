/**
 * The projects `tsc -b` builds before each program of a solution, for tsserver to read as
 * references (src/presets/solution-references.ts): `tsc -b` orders the projects depth first
 * through their references (a project after what it references, the roots in the order given),
 * so a program reads the current declarations of every composite project before it — also one it
 * reaches through a package name without a `references` entry. tsserver reads the sources of
 * those it is told are references; the others' build output would be read as it is on disk.
 * See docs/decisions/0108-solution-build-order-as-references.md.
 */
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { largeSourceGuardOption, solutionReferencesOption } from '../presets/embedded-typescript.ts';
import type { TsProgram } from './typescript-programs.ts';

/**
 * @param programs the run's programs (in any order: the roots are those no other program
 *   references, e.g. a solution's root tsconfig, taken in the order given)
 * @returns their config paths in `tsc -b`'s build order
 */
export function buildOrder(programs: readonly TsProgram[]): string[] {
  const byConfig = new Map(programs.map((program) => [program.configPath, program]));
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (config: string): void => {
    if (seen.has(config)) return;
    seen.add(config);
    for (const reference of byConfig.get(config)?.references ?? []) visit(reference);
    if (byConfig.has(config)) order.push(config);
  };
  const referenced = new Set(programs.flatMap((program) => program.references));
  for (const program of programs) if (!referenced.has(program.configPath)) visit(program.configPath);
  // A reference cycle has no root: what is left, in the order given.
  for (const program of programs) visit(program.configPath);
  return order;
}

/**
 * @param programs the run's programs
 * @returns per program with files, the composite projects built before it that it does not
 *   already reach through its own references (only programs that get some)
 */
export function solutionReferences(programs: readonly TsProgram[]): Record<string, string[]> {
  const byConfig = new Map(programs.map((program) => [program.configPath, program]));
  const reached = (config: string): Set<string> => {
    const out = new Set<string>();
    const queue = [...(byConfig.get(config)?.references ?? [])];
    while (queue.length > 0) {
      const next = queue.shift() as string;
      if (out.has(next)) continue;
      out.add(next);
      queue.push(...(byConfig.get(next)?.references ?? []));
    }
    return out;
  };
  const out: Record<string, string[]> = {};
  const before: string[] = [];
  for (const config of buildOrder(programs)) {
    // A solution-style config (no files of its own) checks nothing and declares nothing.
    const program = byConfig.get(config);
    const hasFiles = program !== undefined && program.files.length > 0;
    const own = reached(config);
    const extra = before.filter((earlier) => !own.has(earlier));
    if (hasFiles && extra.length > 0) out[config] = extra;
    // Only a composite project that emits can be a reference (TS6306, TS6310 otherwise).
    if (hasFiles && program.buildsReference === true) before.push(config);
  }
  return out;
}

/**
 * @param path the map file the servers were told of
 * @param programs the run's programs
 */
export function writeSolutionReferences(path: string, programs: readonly TsProgram[]): void {
  writeFileSync(path, JSON.stringify(solutionReferences(programs)));
}

/** The map file of one `check` run, and the server environment that names it. */
export interface SolutionReferencesFile {
  /** `NODE_OPTIONS` (the large-source guard and the preload) and the map's path, for the TypeScript server entry. */
  env: Record<string, string>;
  /** Writes the map of the run's programs (before any file is opened). */
  write: (programs: readonly TsProgram[]) => void;
  /** Removes the file. */
  dispose: () => void;
}

/**
 * @returns a map file under the system's temporary directory (never in the user's tree), removed
 *   at dispose or, at the latest, when the process exits (a second Ctrl-C exits at once)
 */
export function solutionReferencesFile(): SolutionReferencesFile {
  const path = join(tmpdir(), `dsh-lsp-solution-${process.pid}-${randomUUID()}.json`);
  const remove = (): void => rmSync(path, { force: true });
  process.once('exit', remove);
  return {
    env: { NODE_OPTIONS: `${largeSourceGuardOption()} ${solutionReferencesOption()}`, DSH_LSP_SOLUTION_REFERENCES: path },
    write: (programs) => writeSolutionReferences(path, programs),
    dispose: () => {
      process.off('exit', remove);
      remove();
    },
  };
}
