/**
 * The files whose problems a change could alter, beyond the changed file itself: for a server
 * that can say (tsserver), every file that imports it, transitively — nearest first — since a
 * changed export's type flows on through files that only pass it along. A change that reaches
 * every file of the program (a script's globals, `declare global`/`declare module`, a deleted or
 * moved file whose importers can no longer be asked about, a tsconfig/jsconfig) stands for the
 * whole program. A change no server can say this about is returned as `unknown`, never as
 * "no dependents".
 */
import { basename, sep } from 'node:path';
import type { LspEngineApi } from '../lsp/engine-types.ts';
import type { PendingSource } from './change-ledger.ts';

/** What finding dependents needs. */
export interface DependentsDeps {
  engine: Pick<LspEngineApi, 'fileImporters' | 'projectFiles'>;
  /** The text of a file as it is now, or undefined when it cannot be read. */
  readText: (path: string, signal: AbortSignal) => Promise<string | undefined>;
}

/** The dependents found for some sources. */
export interface Dependents {
  /** Files whose problems may have changed, nearest first (sources themselves excluded). */
  files: string[];
  /** Sources whose dependents were found (all of them, or the whole program). */
  found: string[];
  /** Sources whose dependents no server could tell. */
  unknown: string[];
  /** The walk stopped early because the caller had enough (`files` is then incomplete). */
  cut?: true;
}

/** Compiler project files: a change to one reaches every file of the program. */
const PROJECT_FILES = new Set(['tsconfig.json', 'jsconfig.json']);

/**
 * @param deps engine and a text reader
 * @param root workspace root (results are kept inside it, outside `node_modules`)
 * @param sources the changes
 * @param anchors files of the root's program to ask for the whole program by (for sources that cannot be asked about themselves)
 * @param signal cancels (an abort rejects)
 * @param enough asked after each level of importers: true stops the walk (the result says `cut`)
 * @returns the dependents, nearest first
 */
export async function findDependents(
  deps: DependentsDeps,
  root: string,
  sources: readonly PendingSource[],
  anchors: readonly string[],
  signal: AbortSignal,
  enough?: (files: readonly string[]) => boolean,
): Promise<Dependents> {
  const inside = (path: string): boolean => path.startsWith(root + sep) && !path.includes(`${sep}node_modules${sep}`);
  const isSource = new Set(sources.map((s) => s.path));
  const files: string[] = [];
  const seen = new Set<string>(isSource);
  const add = (path: string): void => {
    if (seen.has(path) || !inside(path)) return;
    seen.add(path);
    files.push(path);
  };
  const found: string[] = [];
  const unknown: string[] = [];
  let level: string[] = [];
  const whole: PendingSource[] = [];
  for (const source of sources) {
    if (source.kind === 'deleted' || PROJECT_FILES.has(basename(source.path)) || (await reachesProgram(deps, source.path, signal))) whole.push(source);
    else level.push(source.path);
  }
  if (whole.length > 0) {
    const candidates = [...sources.filter((s) => s.kind !== 'deleted').map((s) => s.path), ...anchors];
    const program = await programOf(deps, root, [...new Set(candidates)], signal);
    for (const source of whole) (program === undefined ? unknown : found).push(source.path);
    for (const path of program ?? []) add(path);
  }
  // breadth first over importers: every level's questions go out at once (pipelined)
  const asked = new Set<string>();
  const unresolved = new Set<string>();
  const firstLevel = new Set(level);
  while (level.length > 0) {
    const ask = (path: string): Promise<string[] | undefined> => deps.engine.fileImporters(path, root, { signal }).catch(unknownUnlessAborted(signal));
    const answers = await Promise.all(level.map(ask));
    // a file just created or changed may not be in the server's project yet when first asked: ask
    // the changed files the server could not answer about once more before calling them unknown
    const retry = level.flatMap((path, i) => (answers[i] === undefined && firstLevel.has(path) && !asked.has(path) ? [i] : []));
    if (retry.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
      const again = await Promise.all(retry.map((i) => ask(level[i] as string)));
      retry.forEach((at, k) => (answers[at] = again[k]));
    }
    const next: string[] = [];
    level.forEach((path, i) => {
      asked.add(path);
      const importers = answers[i];
      if (importers === undefined) {
        if (firstLevel.has(path)) unresolved.add(path);
        return;
      }
      for (const importer of importers) {
        if (!inside(importer) || asked.has(importer)) continue;
        add(importer);
        next.push(importer);
      }
    });
    level = [...new Set(next)].filter((path) => !asked.has(path));
    if (level.length > 0 && enough?.(files) === true) {
      for (const path of firstLevel) (unresolved.has(path) ? unknown : found).push(path);
      return { files, found, unknown, cut: true };
    }
  }
  for (const path of firstLevel) (unresolved.has(path) ? unknown : found).push(path);
  return { files, found, unknown };
}

/** How long to wait before asking once more about a changed file the server had no answer for. */
const RETRY_AFTER_MS = 150;

/** Whether a change to the file can reach every file of its program (globals, augmentations), by its text. */
async function reachesProgram(deps: DependentsDeps, path: string, signal: AbortSignal): Promise<boolean> {
  if (!/\.[cm]?[jt]sx?$/.test(path)) return false;
  const text = await deps.readText(path, signal);
  if (text === undefined) return true;
  return isGlobalScope(text);
}

/**
 * @param text a TypeScript/JavaScript source
 * @returns whether its declarations can reach other files without an import: a script (no
 *   top-level `import`/`export`) or one with `declare global` / `declare module`
 */
export function isGlobalScope(text: string): boolean {
  if (/^\s*declare\s+(global\b|module\s)/m.test(text)) return true;
  return !/^\s*(import|export)\b/m.test(text);
}

/** The program's files inside the root, asked by the first of `candidates` a server has a project for. */
async function programOf(deps: DependentsDeps, root: string, candidates: readonly string[], signal: AbortSignal): Promise<string[] | undefined> {
  for (const path of candidates) {
    const files = await deps.engine.projectFiles(path, root, { signal }).catch(unknownUnlessAborted(signal));
    if (files !== undefined) return files;
  }
  return undefined;
}

/** A failed question is "not known"; an abort stays an abort. */
function unknownUnlessAborted(signal: AbortSignal): (error: unknown) => undefined {
  return (error) => {
    if (signal.aborted) throw error;
    return undefined;
  };
}
