/**
 * `check`'s files, program by program (decision 0105): the glue between the check command and
 * {@link runProgramSchedule} — one progress line for the run, each program listed through its
 * first planned file on that file's live server (what it imports from outside its `include` is
 * checked too, as `tsc -p` does; the listing also feeds the stale-output rule), and each
 * group's servers stopped through the engine when done, except under `--watch`.
 */
import { dirname, resolve } from 'node:path';
import type { LspActionsApi } from '../lsp-actions-api.ts';
import { EMBEDDED_TYPESCRIPT_ID } from '../presets/embedded-typescript.ts';
import { importedOutsideInclude, type FileSet } from './check-file-set.ts';
import { failedFileReport, type FileReport } from './check-report.ts';
import type { CliIo } from './cli-io.ts';
import { displayPath } from './format-text.ts';
import { runProgramSchedule, type ServerKey } from './program-schedule.ts';
import { createProgress } from './progress.ts';
import type { TsProgram } from './typescript-programs.ts';

/** Programs whose servers are live at once in a check (decision 0105: two measured up to 1.8× `tsc -b`'s memory). */
const PROGRAMS_AT_ONCE = 1;

/** What the run is: its workspace, its interrupt, and the parts of the command used here. */
export interface ProgramRun {
  workspace: string;
  signal: AbortSignal | undefined;
  /** `--watch`: servers are kept warm, never stopped. */
  watch: boolean;
  /** The progress line (`--no-progress`: off). */
  progress: boolean;
}

/**
 * Asks each program's server (through `member`, one file of the program that was checked) for
 * the program's files and keeps those the plan left out ({@link importedOutsideInclude}). Nothing when the engine
 * cannot list a project.
 */
export async function importedFiles(
  api: LspActionsApi,
  fileSet: FileSet,
  programs: ReadonlyArray<{ program: TsProgram; member: string }>,
  planned: ReadonlySet<string>,
  isTypeScriptFile: (file: string) => boolean,
  plan: ProgramRun,
): Promise<{ extra: string[]; unlisted: FileReport[]; listings: Map<string, string[]> }> {
  const unlisted: FileReport[] = [];
  const listings = new Map<string, string[]>();
  if (typeof api.engine.projectFiles !== 'function') return { extra: [], unlisted, listings };
  const extra = new Set<string>();
  for (const { program, member } of programs) {
    const listed = await api.engine.projectFiles(member, plan.workspace, plan.signal === undefined ? {} : { signal: plan.signal }).catch((error: unknown) => error);
    if (!Array.isArray(listed)) {
      if (plan.signal?.aborted === true) break;
      // Never a silent drop: the files it imports from outside its include are not known.
      const why = listed instanceof Error ? listed.message : 'the TypeScript server has no project for it';
      unlisted.push({ ...failedFileReport(program.configPath, new Error(`could not list the program's files through ${member}: ${why}`)), config: true });
      continue;
    }
    listings.set(program.configPath, (listed as string[]).map((name) => resolve(name)));
    for (const file of importedOutsideInclude(fileSet, listed as string[], isTypeScriptFile, planned, fileSet.whole.has(program.configPath))) extra.add(file);
  }
  return { extra: [...extra].sort(), unlisted, listings };
}

/**
 * @param programs the programs of the run
 * @param planned the files checked
 * @returns per file, the programs to list through it: each program not listed already (TypeScript 7
 *   listed them whole) through its first planned file
 */
export function listingMembers(programs: readonly TsProgram[], planned: ReadonlySet<string>): Map<string, Array<{ program: TsProgram; member: string }>> {
  const members = new Map<string, Array<{ program: TsProgram; member: string }>>();
  for (const program of programs) {
    const member = program.complete === true ? undefined : program.files.find((file) => planned.has(file));
    if (member !== undefined) members.set(member, [...(members.get(member) ?? []), { program, member }]);
  }
  return members;
}

/**
 * Finds the servers' roots of the files' directories now (each a walk up the directories through
 * the engine's file system: ~10 ms for rxjs's 32 directories), so the schedule's routing, which
 * asks them before the first pull, finds them known. For the time the plan still waits (TypeScript
 * 7: its project's load). Never rejects.
 * @param engine the booted engine
 * @param files the files the plan walked
 * @param workspace the workspace root
 * @param signal cancels
 */
export async function primeServerRoots(engine: LspActionsApi['engine'], files: readonly string[], workspace: string, signal?: AbortSignal): Promise<void> {
  const rootOf = engine.serverRootOf?.bind(engine);
  if (rootOf === undefined) return;
  const asked = new Set<string>();
  // a lookup that throws before it is a promise (a disposed engine) is caught like one that rejects
  const lookup = async (serverId: string, file: string): Promise<unknown> => rootOf(serverId, file, workspace, signal === undefined ? {} : { signal });
  const lookups: Array<Promise<unknown>> = [];
  try {
    for (const file of files) {
      for (const serverId of engine.serversFor(file, workspace)) {
        const key = `${serverId}\u0000${dirname(file)}`;
        if (asked.has(key)) continue;
        asked.add(key);
        lookups.push(lookup(serverId, file).catch(() => undefined));
      }
    }
  } catch {
    // an engine that cannot route (disposed): nothing to prime; the schedule says why
  }
  await Promise.all(lookups);
}

/** What to check and what to fill in. */
export interface ProgramWork {
  fileSet: FileSet;
  /** The files to check; the files found through the programs' listings are added. */
  handled: string[];
  /** `--watch`, a re-check of some files: every file planned (the others keep their reports); default `handled`. */
  planned?: ReadonlySet<string>;
  /** The programs to list, each through its first file in `handled`; default every program of the file set. */
  lists?: readonly TsProgram[];
  /** Program listings per config; the listings asked here are added. */
  listings: Map<string, string[]>;
  isTypeScriptFile: (file: string) => boolean;
  /** Ask each TypeScript program's server for its files: what it imports from outside its `include` is checked too, as `tsc -p` does. */
  listPrograms: boolean;
  /** The server started while the files were planned (for which file, and the start). */
  prestarted: { anchor: string; started: Promise<void> } | undefined;
  /** Checks files whose answers come from the same servers, telling `count` of each as answered. */
  check: (files: string[], count: (file: string) => void) => Promise<FileReport[]>;
}

/**
 * The files, server by server ({@link runProgramSchedule}): a program's files, then its listing
 * and the files it imports from outside its `include`, then its server is stopped — except
 * under `--watch`, which keeps its servers warm for the re-checks. One progress line for all.
 * @param api the booted plugin's services
 * @param io where the progress line goes, and the working directory it names files from
 * @param plan the run
 * @param work the files, the plan they come from, and how to check a batch
 * @returns the files' reports, then a `failed` report per program that could not be listed
 */
export async function checkProgramByProgram(api: LspActionsApi, io: CliIo, plan: ProgramRun, work: ProgramWork): Promise<FileReport[]> {
  const { engine } = api;
  const { fileSet, handled } = work;
  const progress = createProgress(io.stderr, { total: handled.length, enabled: plan.progress });
  // Each file counts once: as its answer arrives (a batch's files one by one), or when its batch ends.
  const counted = new Set<string>();
  const count = (file: string): void => {
    if (counted.has(file)) return;
    counted.add(file);
    progress.tick(displayPath(file, io.cwd));
  };
  const opts = plan.signal === undefined ? {} : { signal: plan.signal };
  const rootOf = engine.serverRootOf?.bind(engine);
  // a server's root is found from the file's directory up: asked once per directory and servers
  // (rxjs: 501 files in 33 directories; asked per file, the routing took ~12 ms before the first pull)
  const byDirectory = new Map<string, Promise<ServerKey[]>>();
  const serversOf = (file: string): Promise<ServerKey[] | undefined> => {
    if (rootOf === undefined) return Promise.resolve(undefined);
    const ids = engine.serversFor(file, plan.workspace);
    const key = `${dirname(file)}\u0000${ids.join('\u0000')}`;
    let servers = byDirectory.get(key);
    if (servers === undefined) {
      servers = Promise.all(ids.map(async (serverId) => ({ serverId, root: await rootOf(serverId, file, plan.workspace, opts) })));
      byDirectory.set(key, servers);
    }
    return servers;
  };
  const planned = new Set([...(work.planned ?? []), ...handled]);
  // A program is listed through its first file checked here, on the server that file's group runs.
  const members = listingMembers(work.lists ?? fileSet.programs, new Set(handled));
  const unlisted: FileReport[] = [];
  const follow = async (files: readonly string[]): Promise<string[]> => {
    const programs = files.flatMap((file) => members.get(file) ?? []);
    if (programs.length === 0) return [];
    const found = await importedFiles(api, fileSet, programs, planned, work.isTypeScriptFile, plan);
    for (const [config, listed] of found.listings) work.listings.set(config, listed);
    unlisted.push(...found.unlisted);
    const extra = found.extra.filter((file) => !planned.has(file));
    for (const file of extra) planned.add(file);
    handled.push(...extra);
    const imported = new Set(extra);
    fileSet.unconfigured = fileSet.unconfigured.filter((file) => !imported.has(file));
    progress.grow(extra.length);
    return extra;
  };
  const stopServer = plan.watch ? undefined : engine.stopServer?.bind(engine);
  const prestarted = work.prestarted;
  const live = prestarted !== undefined && rootOf !== undefined ? [{ serverId: EMBEDDED_TYPESCRIPT_ID, root: await rootOf(EMBEDDED_TYPESCRIPT_ID, prestarted.anchor, plan.workspace, opts).catch(() => plan.workspace) }] : [];
  try {
    const reports = await runProgramSchedule({
      files: [...handled],
      serversOf,
      check: (files) => work.check(files, count),
      ...(work.listPrograms ? { follow } : {}),
      // A stop waits for the prestart: a start still on its way would otherwise outlive it.
      ...(stopServer === undefined
        ? {}
        : {
            stop: async (server: ServerKey) => {
              await prestarted?.started;
              return stopServer(server.serverId, server.root);
            },
          }),
      live,
      concurrency: PROGRAMS_AT_ONCE,
      ...(plan.signal === undefined ? {} : { signal: plan.signal }),
    });
    return [...reports, ...unlisted];
  } finally {
    progress.done();
  }
}
