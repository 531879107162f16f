/**
 * Which configured servers handle a file, and which directory each one treats as its root.
 *
 * Order: servers whose `fileGlobs` match the workspace-relative `/` path come first (config
 * order), then servers whose `extensionToLanguage` knows the file's extension (config order).
 * Extensions match case-insensitively, longest multi-dot suffix first (`.d.ts` before `.ts`).
 */
import { basename, dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import type { ServerConfig } from '../config.ts';

/** One server routed to a file. */
export interface RouteMatch {
  serverId: string;
  /** LSP languageId for `didOpen`. */
  languageId: string;
  /** How it matched. */
  via: 'glob' | 'extension';
}

/**
 * @param path absolute file path
 * @param root absolute workspace root
 * @returns the `/`-separated path relative to `root`, or `undefined` when `path` is outside it
 */
export function workspaceRelative(path: string, root: string): string | undefined {
  const fast = plainRelative(path, root);
  if (fast !== undefined) return fast;
  const rel = relative(root, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** Whether the last root seen by {@link plainRelative} is a normalised absolute POSIX path. */
let lastRoot: { root: string; plain: boolean } | undefined;
/** A `.`/`..` segment, an empty one (leading, inner), or a trailing separator. */
const UNPLAIN = /(^|\/)\.{1,2}(\/|$)|\/\/|\/$|^\//;

/**
 * The usual case of {@link workspaceRelative} without `path.relative`, which resolves both paths
 * on every call (routing a whole check's files spent ~12 ms there): a normalised absolute POSIX
 * path below a normalised absolute root is the rest of the string.
 * @returns the relative path, or undefined when the fast case does not apply (not under the root
 *   by prefix, not POSIX, not normalised): then `path.relative` decides
 */
function plainRelative(path: string, root: string): string | undefined {
  if (sep !== '/') return undefined;
  if (lastRoot?.root !== root) lastRoot = { root, plain: isAbsolute(root) && normalize(root) === root && (root === '/' || !root.endsWith('/')) };
  if (!lastRoot.plain) return undefined;
  const prefix = root === '/' ? '/' : `${root}/`;
  if (path.length <= prefix.length || !path.startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length);
  return UNPLAIN.test(rest) ? undefined : rest;
}

/**
 * @param fileName a base name such as `index.d.ts` or `.eslintrc.json`
 * @returns its dot suffixes, longest first (`.d.ts`, `.ts`), lower-cased
 */
export function extensionCandidates(fileName: string): string[] {
  const lower = fileName.toLowerCase();
  const out: string[] = [];
  for (let i = 0; i < lower.length; i++) {
    if (lower[i] === '.') out.push(lower.slice(i));
  }
  return out;
}

interface CompiledServer {
  id: string;
  globs: Array<{ test: (path: string) => boolean; languageId: string }>;
  extensions: Map<string, string>;
  rootMarkers: string[];
}

/** Routes files to server entries; pure except for {@link ServerRouter.findRoot}. */
export class ServerRouter {
  private readonly servers: CompiledServer[];
  /** Whether any server routes by glob (else no file's workspace-relative path is needed). */
  private readonly anyGlobs: boolean;

  /** @param servers the config's `servers` table (insertion order is the routing order) */
  constructor(servers: Record<string, ServerConfig>) {
    this.servers = Object.entries(servers).map(([id, entry]) => ({
      id,
      globs: Object.entries(entry.fileGlobs ?? {}).map(([glob, languageId]) => ({
        test: picomatch(glob, { dot: true }),
        languageId,
      })),
      extensions: new Map(
        Object.entries(entry.extensionToLanguage ?? {}).map(([ext, lang]) => [
          (ext.startsWith('.') ? ext : `.${ext}`).toLowerCase(),
          lang,
        ]),
      ),
      rootMarkers: [...(entry.rootMarkers ?? [])],
    }));
    this.anyGlobs = this.servers.some((server) => server.globs.length > 0);
  }

  /**
   * @param path absolute file path
   * @param root absolute workspace root
   * @returns every server for the file, globs first, then extensions
   */
  route(path: string, root: string): RouteMatch[] {
    // globs match the workspace-relative path; without any, it is not needed
    const rel = this.anyGlobs ? workspaceRelative(path, root) : undefined;
    const byGlob: RouteMatch[] = [];
    const byExtension: RouteMatch[] = [];
    const candidates = extensionCandidates(basename(path));
    for (const server of this.servers) {
      const glob = rel === undefined ? undefined : server.globs.find((g) => g.test(rel));
      if (glob) {
        byGlob.push({ serverId: server.id, languageId: glob.languageId, via: 'glob' });
        continue;
      }
      const ext = candidates.find((c) => server.extensions.has(c));
      if (ext !== undefined) {
        byExtension.push({ serverId: server.id, languageId: server.extensions.get(ext) ?? '', via: 'extension' });
      }
    }
    return [...byGlob, ...byExtension];
  }

  /** `serverId \0 workspaceRoot \0 directory` → that directory's server root (resolved lookups only). */
  private readonly roots = new Map<string, string>();
  /** Bumped by every invalidation: a lookup that overlapped one does not cache its answer. */
  private rootsGeneration = 0;

  /**
   * The server's root for a file: the nearest ancestor directory of `path` (up to and including
   * `root`) that holds one of the server's `rootMarkers`; `root` when none does. Answers are
   * cached per (server, workspace root, directory) until {@link invalidateRoots} /
   * {@link clearRoots}.
   * @param serverId configured server id
   * @param path absolute file path inside `root`
   * @param root absolute workspace root (the bound)
   * @param fs the harness file system (markers are checked through it)
   * @param signal cancels the lookups
   * @returns the absolute root directory
   */
  async findRoot(
    serverId: string,
    path: string,
    root: string,
    fs: Pick<FileSystem, 'resolve' | 'stat'>,
    signal?: AbortSignal,
  ): Promise<string> {
    const markers = this.servers.find((s) => s.id === serverId)?.rootMarkers ?? [];
    if (markers.length === 0 || workspaceRelative(path, root) === undefined) return root;
    const keyOf = (dir: string): string => `${serverId}\u0000${root}\u0000${dir}`;
    const cached = this.roots.get(keyOf(dirname(path)));
    if (cached !== undefined) return cached;
    const generation = this.rootsGeneration;
    const walked: string[] = [];
    let uncertain = false;
    let dir = dirname(path);
    let found: string;
    for (;;) {
      const known = this.roots.get(keyOf(dir));
      if (known !== undefined) {
        found = known;
        break;
      }
      walked.push(dir);
      const hits = await Promise.all(
        markers.map(async (marker) => {
          try {
            const target = await fs.resolve(join(dir, marker), { signal });
            return (await fs.stat(target, signal)) !== undefined;
          } catch {
            // unreadable marker location (permission, sandbox): treat as "no marker here", uncached
            uncertain = true;
            return false;
          }
        }),
      );
      if (hits.some(Boolean)) {
        found = dir;
        break;
      }
      const parent = dirname(dir);
      if (dir === root || workspaceRelative(dir, root) === undefined || parent === dir) {
        found = root;
        break;
      }
      dir = parent;
    }
    if (!uncertain && signal?.aborted !== true && generation === this.rootsGeneration) for (const d of walked) this.roots.set(keyOf(d), found);
    return found;
  }

  /**
   * Drops cached roots a created/deleted/changed file may affect: when its base name is some
   * server's root marker, every cached directory at or below the file's directory.
   * @param paths absolute paths reported changed
   * @returns how many cache entries were dropped
   */
  invalidateRoots(paths: Iterable<string>): number {
    let dropped = 0;
    for (const path of paths) {
      const name = basename(path);
      const dir = dirname(path);
      for (const server of this.servers) {
        if (!server.rootMarkers.includes(name)) continue;
        this.rootsGeneration++;
        const prefix = `${server.id}\u0000`;
        for (const key of this.roots.keys()) {
          if (!key.startsWith(prefix)) continue;
          const cachedDir = key.slice(key.lastIndexOf('\u0000') + 1);
          if (cachedDir === dir || workspaceRelative(cachedDir, dir) !== undefined) {
            this.roots.delete(key);
            dropped++;
          }
        }
      }
    }
    return dropped;
  }

  /** Forgets every cached root (engine dispose). */
  clearRoots(): void {
    this.rootsGeneration++;
    this.roots.clear();
  }

  /** @returns how many directories have a cached root (tests) */
  cachedRootCount(): number {
    return this.roots.size;
  }
}
