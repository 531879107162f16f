/**
 * `check` on TypeScript 7: the server is started, and its project loaded, while the compiler's
 * own listing (`tsc --listFilesOnly`) still runs — the two parses overlap instead of following
 * each other. The load is a pull of one walked file of the anchor's program, its answer dropped;
 * the file set's answers come later, proven against the server's epoch (the walked files'
 * versions, snapshot right after the walk — before any server existed: engine `warmStart`,
 * unopened-pull.ts).
 * See docs/decisions/0110-warm-project-load.md.
 */
import { sep } from 'node:path';
import type { LspEngineApi, ServerEpoch } from '../lsp/engine-types.ts';
import { EMBEDDED_TYPESCRIPT_ID } from '../presets/embedded-typescript.ts';
import type { CheckTimeline } from './check-timeline.ts';
import type { Walked } from './early-plan.ts';

/** Walked files tried as the file that loads the anchor's project (the first usually is one). */
const SEED_TRIES = 32;

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
  engine: Pick<LspEngineApi, 'prestart' | 'warmStart' | 'serverRootOf'>;
  /** The file or config the server is started for. */
  anchor: string;
  /** The plan's walk, and the snapshot taken after it. */
  walked: Promise<Walked | undefined>;
  workspace: string;
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
    const files = (walked?.files ?? []).filter(inputs.isTypeScriptFile);
    const seed = engine.warmStart === undefined || engine.serverRootOf === undefined ? undefined : await seedOf(engine.serverRootOf.bind(engine), anchor, files, workspace, opts);
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

/** The first walked file on the anchor's server process (same server root). */
async function seedOf(
  rootOf: NonNullable<LspEngineApi['serverRootOf']>,
  anchor: string,
  files: readonly string[],
  workspace: string,
  opts: { signal?: AbortSignal },
): Promise<string | undefined> {
  const root = await rootOf(EMBEDDED_TYPESCRIPT_ID, anchor, workspace, opts);
  const inside = files.filter((file) => file.startsWith(root.endsWith(sep) ? root : root + sep)).slice(0, SEED_TRIES);
  for (const file of inside) if ((await rootOf(EMBEDDED_TYPESCRIPT_ID, file, workspace, opts)) === root) return file;
  return undefined;
}
