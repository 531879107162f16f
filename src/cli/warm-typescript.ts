/**
 * `check` on TypeScript 7: the server is started, and its project loaded, while the compiler's
 * own listing (`tsc --listFilesOnly`) still runs — the two parses overlap instead of following
 * each other. The load is a pull of one walked file of the anchor's program, its answer dropped;
 * the file set's answers come later, proven against the server's epoch (the walked files'
 * versions, snapshot right after the walk — before any server existed: engine `warmStart`,
 * unopened-pull.ts).
 * See docs/decisions/0110-warm-project-load.md.
 */
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { LspEngineApi, ServerEpoch } from '../lsp/engine-types.ts';
import { EMBEDDED_TYPESCRIPT_ID } from '../presets/embedded-typescript.ts';
import type { CheckTimeline } from './check-timeline.ts';
import type { Walked } from './early-plan.ts';

/** A TypeScript server started for `check`. */
export interface StartedTypeScript {
  /** The file the server was started for. */
  anchor: string;
  /** The start (settled, never rejected). */
  started: Promise<void>;
  /** The server process's epoch, when it was warm-started (settled, never rejected). */
  epoch?: Promise<ServerEpoch | undefined>;
}

/** What a warm start needs. */
export interface WarmInputs {
  engine: Pick<LspEngineApi, 'prestart' | 'warmStart'>;
  /** The file or config the server is started for. */
  anchor: string;
  /** The plan's walk, and the snapshot taken after it. */
  walked: Promise<Walked | undefined>;
  workspace: string;
  /** The TypeScript server's root markers (a server process per directory holding one). */
  rootMarkers: readonly string[];
  isTypeScriptFile: (path: string) => boolean;
  signal: AbortSignal | undefined;
  timeline: CheckTimeline;
}

/**
 * @param inputs the engine, the anchor, the walk under way
 * @returns the start; a plain prestart when no walked file shares the anchor's server
 */
export function warmTypeScript(inputs: WarmInputs): StartedTypeScript {
  const { engine, anchor, workspace, timeline } = inputs;
  const opts = inputs.signal === undefined ? {} : { signal: inputs.signal };
  const run = async (): Promise<ServerEpoch | undefined> => {
    const walked = await inputs.walked;
    const seed = warmSeed(anchor, walked?.files ?? [], inputs.isTypeScriptFile, workspace, inputs.rootMarkers)?.seed;
    if (seed === undefined || walked === undefined || engine.warmStart === undefined) {
      await engine.prestart(EMBEDDED_TYPESCRIPT_ID, anchor, workspace, opts);
      return undefined;
    }
    const { epoch, loaded } = await engine.warmStart(EMBEDDED_TYPESCRIPT_ID, seed, workspace, walked.snapshot, opts);
    void loaded.then(() => timeline.mark('project loaded'));
    return epoch;
  };
  const warm = run();
  // A failed start is reported by the first real request for the files; nothing to say here.
  const started = warm.then(() => timeline.mark('server ready')).catch(() => undefined);
  return { anchor, started, epoch: warm.catch(() => undefined) };
}

/**
 * The first walked file on the anchor's server process: the same nearest directory with one of
 * the server's root markers (check's: tsconfig.json, jsconfig.json), looked up synchronously — the engine's
 * own lookup goes through its file system, slower, and on the server's start path. A seed on
 * another process only loads that one (its groups get the epoch, the anchor's none): slower, exact.
 * @returns the seed file and the server root it shares with the anchor, or undefined
 */
export function warmSeed(
  anchor: string,
  files: readonly string[],
  isTypeScriptFile: (path: string) => boolean,
  workspace: string,
  markers: readonly string[],
): { seed: string; root: string } | undefined {
  const known = new Map<string, string>();
  const rootOf = (path: string): string => {
    const chain: string[] = [];
    let dir = dirname(path);
    let root: string | undefined;
    for (;;) {
      root = known.get(dir);
      if (root !== undefined) break;
      chain.push(dir);
      if (markers.some((marker) => existsSync(join(dir, marker)))) {
        root = dir;
        break;
      }
      const parent = dirname(dir);
      if (dir === workspace || parent === dir) {
        root = workspace;
        break;
      }
      dir = parent;
    }
    for (const walked of chain) known.set(walked, root);
    return root;
  };
  const root = rootOf(anchor);
  const prefix = root.endsWith(sep) ? root : root + sep;
  // routed lazily: the first match is enough, and this runs on the server's start path
  const seed = files.find((file) => file.startsWith(prefix) && isTypeScriptFile(file) && rootOf(file) === root);
  return seed === undefined ? undefined : { seed, root };
}
