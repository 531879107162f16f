/**
 * Preloaded into `check`'s tsserver (`NODE_OPTIONS=--import <this module>`, with
 * `DSH_LSP_SOLUTION_REFERENCES` naming a JSON file `{ "<tsconfig path>": ["<tsconfig path>", …] }`
 * that `check` writes once it knows the solution's programs; see solution-references-map.ts).
 *
 * `tsc -b` builds the projects of a solution in order, so a program reads what the projects built
 * before it declare *now*, whether it references them or reaches them through a package name
 * (a workspace symlink into another project's `lib/…d.ts`). tsserver redirects a `.d.ts` to its
 * source only for the projects a program references, and reads the others' build output as it is
 * on disk — missing on a fresh clone (TS2307 and the implicit anys that follow), old after a
 * change. This preload adds, to each listed configured project, the projects `tsc -b` builds
 * before it as references, so tsserver's own redirect (`useSourceOfProjectReferenceRedirect`)
 * serves their sources. Nothing is written to the user's tree. See
 * docs/decisions/0108-solution-build-order-as-references.md.
 *
 * The file is read when a project's references are asked (a project is loaded once its first
 * file is opened, after `check` wrote it); an unreadable file adds nothing (the stale-output rule
 * still judges what is read from disk).
 */
import { readFileSync, statSync } from 'node:fs';
import Module from 'node:module';

/** The part of a tsserver `ConfiguredProject` used here. */
interface ConfiguredProjectLike {
  getConfigFilePath(): string;
  getProjectReferences(): ReadonlyArray<{ path: string }> | undefined;
}

type ModuleLoad = (request: string, parent: unknown, isMain: boolean) => unknown;

/** @returns whether this process is a tsserver */
function isTsserver(): boolean {
  return /tsserver(?:\.js)?$/.test(process.argv[1] ?? '');
}

const mapPath = process.env['DSH_LSP_SOLUTION_REFERENCES'];

let cached: { mtimeMs: number; map: Record<string, string[]> } | undefined;

/** @returns the map, read again when the file changed (`--watch` writes it per run) */
function solutionMap(path: string): Record<string, string[]> {
  try {
    const mtimeMs = statSync(path).mtimeMs;
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, map: JSON.parse(readFileSync(path, 'utf8')) as Record<string, string[]> };
    return cached.map;
  } catch {
    // swallowed: no map (not written, or gone) adds no reference; tsserver reads the disk as before
    return {};
  }
}

/**
 * @param prototype tsserver's `ConfiguredProject.prototype`
 * @param path the map file
 */
function addSolutionReferences(prototype: ConfiguredProjectLike, path: string): void {
  const original = prototype.getProjectReferences;
  // The same array while the map and the project's own references are unchanged: tsserver
  // compares references to decide whether a program is up to date.
  const memo = new WeakMap<object, { own: unknown; extra: string[]; refs: ReadonlyArray<{ path: string }> | undefined }>();
  prototype.getProjectReferences = function (this: ConfiguredProjectLike) {
    const own = original.call(this);
    const extra = solutionMap(path)[this.getConfigFilePath()] ?? [];
    const last = memo.get(this);
    if (last !== undefined && last.own === own && last.extra === extra) return last.refs;
    const present = new Set((own ?? []).map((ref) => ref.path));
    const added = extra.filter((config) => !present.has(config)).map((config) => ({ path: config, originalPath: config }));
    const refs = added.length === 0 ? own : [...(own ?? []), ...added];
    memo.set(this, { own, extra, refs });
    return refs;
  };
}

if (isTsserver() && mapPath !== undefined && mapPath !== '') {
  // CommonJS's loader entry (no public hook hands over a module's exports as it loads).
  const LOAD = '_load';
  const moduleInternals = Module as unknown as Record<typeof LOAD, ModuleLoad>;
  const load = moduleInternals[LOAD];
  let patched = false;
  // tsserver.js requires typescript.js (where `ts.server` lives): patch it as it loads.
  moduleInternals[LOAD] = function (this: unknown, ...args: Parameters<ModuleLoad>): unknown {
    const exports = Reflect.apply(load, this, args) as { server?: { ConfiguredProject?: { prototype: ConfiguredProjectLike } } } | undefined;
    const prototype = exports?.server?.ConfiguredProject?.prototype;
    if (!patched && prototype !== undefined && typeof prototype.getProjectReferences === 'function') {
      patched = true;
      addSolutionReferences(prototype, mapPath);
    }
    return exports;
  };
}
