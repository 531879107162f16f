/**
 * One run of `check` on a booted composition (check-command.ts boots it): the engine's server
 * for the first path (warm-started on TypeScript 7), the file set, the programs checked one after
 * the other (check-by-program.ts; `--watch`: what an edit reaches, watch-program-run.ts), the
 * compiler's reporting rules applied, the report printed. Loaded while the composition boots.
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { resolve } from 'node:path';
import { toWireDiagnostic, toWireServerStatus } from '../actions/wire-format.ts';
import type { LspActionsApi } from '../lsp-actions-api.ts';
import type { FileSnapshot, ServerEpoch } from '../lsp/engine-types.ts';
import { EMBEDDED_TYPESCRIPT_ID } from '../presets/embedded-typescript.ts';
import type { BootedComposition } from './boot-composition.ts';
import { planFileSet, type FileSet } from './check-file-set.ts';
import { checkProgramByProgram, primeServerRoots } from './check-by-program.ts';
import { refuseHalfWrittenTree } from './check-interrupted-edit.ts';
import type { CheckTimeline } from './check-timeline.ts';
import type { EarlyServer } from './early-typescript-server.ts';
import { type EarlyPlan, fileSetRequest } from './early-plan.ts';
import { PlanCache, watchChecks } from './check-watch.ts';
import { WatchAffected } from './watch-affected.ts';
import { checkWatchRun } from './watch-program-run.ts';
import { type CheckReport, type CheckSummary, exitCodeOf, failedFileReport, type FileReport, fileReportFrom, outcomeOf, summarize } from './check-report.ts';
import { type CliIo, SetupError, signalExitCode, stopSignalOf, writeAll } from './cli-io.ts';
import { formatJson } from './format-json.ts';
import { formatSarif } from './format-sarif.ts';
import { displayPath, formatText, plural } from './format-text.ts';
import { INFORMATION_URI, PACKAGE_NAME, PACKAGE_VERSION } from './package-info.ts';
import { type CheckCommand, SEVERITY_NAMES } from './parse-args.ts';
import { colorEnabled, formatPretty } from './pretty-text.ts';
import { createStatus } from './progress.ts';
import { missingServerLines, nothingToCheckMessage, unservedByGroup } from './missing-servers.ts';
import type { SolutionReferencesFile } from './solution-references-map.ts';
import { staleOutputsRead } from './stale-build-outputs.ts';
import { applySyntaxFirst } from './syntax-first.ts';
import { compilerReports } from './compiler-reports.ts';
import { takeFileSnapshot } from './file-snapshot.ts';
import { PROGRAM_ROOT_MARKERS, typeScriptAnchor } from './typescript-anchor.ts';
import { type StartedTypeScript, type WarmInputs, warmTypeScript } from './warm-typescript.ts';
import { syntaxErrorsIsolated, type TsProgram } from './typescript-programs.ts';
import { describeTypeScript, inspectTypeScript, nativeCommand, type TypeScriptChoice } from './workspace-typescript.ts';

/** Extra time a single run may take beyond the wait (server start, slow answers). */
const RUN_SLACK_MS = 60_000;
/** Examples named in a "skipped" note. */
const EXAMPLES = 3;

/** One run's plan: what it checks with, and what a `--watch` run keeps between runs. */
export interface CheckPlan {
  workspace: string;
  waitMs: number;
  signal: AbortSignal | undefined;
  choice: TypeScriptChoice;
  /** Called with the run's counts once its report is made (`--watch` prints its line from them). */
  onSummary?: (summary: CheckSummary) => void;
  /** `--watch`: a plan kept from an earlier run, and where to keep this run's. */
  filePlan?: PlanCache<FileSet>;
  /** The map of the projects built before each program, for tsserver (decision 0108). */
  solution?: SolutionReferencesFile;
  /** Phase marks (DSH_LSP_ACTIONS_TIMELINE=1). */
  timeline: CheckTimeline;
  /** The plan started while the composition booted (taken by the first run). */
  early?: EarlyPlan;
  /** TypeScript 7's server started before the boot (its unused parts are released after the warm start). */
  earlyServer?: EarlyServer;
  /** `--watch`: what the previous run keeps, and which files this run asks (watch-affected.ts). */
  affected?: WatchAffected;
  /** `--watch`: the programs' listings of the previous run (watch-program-run.ts). */
  watchListings?: Map<string, string[]>;
  /** The warm-started TypeScript server's epoch (this run's unopened pulls are proven against it). */
  epoch?: Promise<ServerEpoch | undefined>;
}

/**
 * One check of the plan's files on the booted composition, its report printed.
 * @returns the exit code
 */
export async function checkWith(booted: BootedComposition, cmd: CheckCommand, io: CliIo, runPlan: CheckPlan): Promise<number> {
  let plan = runPlan;
  const api = booted.lspActions();
  if (api === undefined) {
    throw new SetupError('the composition does not provide the lspActions service (is the dsh-lsp-actions row there, with tools, fs and subprocess?)');
  }
  if (api.config.editor.enabled) {
    throw new SetupError('check cannot run a composition with editor.enabled: stdout is the report');
  }
  const choice = effectiveTypeScript(api, plan.choice);
  const isTypeScriptFile = (file: string): boolean => api.engine.serversFor(file, plan.workspace).includes(EMBEDDED_TYPESCRIPT_ID);
  const native = choice?.kind === 'native' ? nativeCommand(choice.serverPath) : undefined;
  // TypeScript 7's project loads while its listing runs when the plan is the early one (decision 0110).
  const walked = native === undefined ? undefined : plan.early?.walked(choice);
  // started first: checking never writes, and a refused run disposes of it
  const prestarted = choice === undefined ? undefined : prestartTypeScript(api, cmd, io, plan, walked === undefined ? undefined : { walked, isTypeScriptFile });
  if (prestarted?.epoch !== undefined) plan = { ...plan, epoch: prestarted.epoch };
  // while the project loads: the roots the schedule routes the files by
  if (walked !== undefined) void walked.then((found) => primeServerRoots(api.engine, found?.files ?? [], plan.workspace, plan.signal)).catch(() => undefined);
  const fs = (booted.ctx as unknown as { fs?: FileSystem }).fs;
  // An edit a crash left half-applied is not judged: exit 2, saying how to finish it.
  if (fs !== undefined) await refuseHalfWrittenTree(fs, plan.workspace, io);
  const planning = createStatus(io.stderr, 'finding the files to check', { enabled: cmd.progress });
  // `--watch`: the previous run's plan when only file contents changed since (see reusablePlan).
  const reused = native === undefined ? plan.filePlan?.reuse() : undefined;
  // The plan made while the composition booted, when the booted table runs the TypeScript it assumed.
  const early = await plan.early?.take(choice);
  // TypeScript 7: the versions its listing's verdicts are proven by, taken after the walk, before the listing ran
  let listedAt: Promise<FileSnapshot | undefined> | undefined = native === undefined ? undefined : early === undefined ? undefined : walked?.then((w) => w?.snapshot);
  const onCollected = native === undefined || early !== undefined ? undefined : (files: readonly string[]): void => void (listedAt = Promise.resolve(takeFileSnapshot(files)));
  const fileSet =
    reused ??
    early ??
    (await planFileSet({ ...fileSetRequest({ cmd, cwd: io.cwd, workspace: plan.workspace, choice, isTypeScriptFile, signal: plan.signal }), ...(onCollected === undefined ? {} : { onCollected }) }).finally(() => planning.done()));
  // a TypeScript 7 plan with no versions taken before its listing: its early verdicts cannot be proven
  if (native !== undefined && listedAt === undefined) listedAt = Promise.resolve(undefined);
  planning.done();
  plan.timeline.mark('plan done');
  if (reused === undefined) plan.filePlan?.keep(fileSet);
  // Before any file is opened: a project's references are read when it loads.
  plan.solution?.write(fileSet.programs);
  // A file whose every program stops before checking (syntax errors, an unusable config) has
  // the compiler's early verdict only, as `tsc` prints it; the server is not asked.
  const stoppedOnly = filesOnlyInStoppedPrograms(fileSet.programs);
  const handled: string[] = [];
  const judgedEarly: string[] = [];
  const unserved: string[] = [];
  for (const file of fileSet.files) {
    if (api.engine.serversFor(file, plan.workspace).length === 0) unserved.push(file);
    else (stoppedOnly.has(file) ? judgedEarly : handled).push(file);
  }
  const hinted = new Set([...unservedByGroup(unserved).values()].flat());
  for (const file of unserved) {
    if (fileSet.explicit.has(file) && !hinted.has(file)) io.stderr.write(`warning: no language server handles ${displayPath(file, io.cwd)}; skipped\n`);
  }
  const missing = missingServerLines(unserved, io.cwd);
  if (handled.length === 0 && fileSet.configErrors.size === 0) {
    if (missing.length > 0) throw new SetupError(missing.join('\n'));
    if (fileSet.unconfigured.length === 0) throw new SetupError(nothingToCheckMessage(cmd.paths, fileSet.files.length, io.cwd));
    throw new SetupError(
      `no file to check: ${plural(fileSet.unconfigured.length, 'TypeScript/JavaScript file')} found, outside every tsconfig program (pass --include-unconfigured)`,
    );
  }
  for (const line of missing) io.stderr.write(`warning: ${line}\n`);
  if (choice !== undefined && plan.filePlan?.ran !== true && handled.some(isTypeScriptFile)) io.stderr.write(`${describeTypeScript(choice)}\n`);
  const listings = new Map<string, string[]>();
  for (const program of fileSet.programs) if (program.complete === true) listings.set(program.configPath, program.files);
  let checked: FileReport[];
  let rechecked: number | undefined;
  if (plan.affected === undefined) {
    checked = await checkProgramByProgram(
      api,
      io,
      { workspace: plan.workspace, signal: plan.signal, watch: cmd.watch, progress: cmd.progress },
      { fileSet, handled, listings, isTypeScriptFile, listPrograms: choice !== undefined, prestarted, check: (files, count) => diagnoseAll(api, files, cmd, plan, count) },
    );
  } else {
    // `--watch` (servers kept warm): only the files the changes can reach are asked again; the rest keep their reports.
    const affected = plan.affected;
    const selection = await affected.select({
      planned: handled,
      planReused: reused !== undefined,
      workspace: plan.workspace,
      isTypeScriptFile,
      onlyTypeScript: (file) => api.engine.serversFor(file, plan.workspace).join() === EMBEDDED_TYPESCRIPT_ID,
      engine: api.engine,
      signal: plan.signal,
    });
    if (selection.reason !== undefined && cmd.logLevel === 'debug') io.stderr.write(`debug: re-checking every file: ${selection.reason}\n`);
    const run = { workspace: plan.workspace, signal: plan.signal, watch: true, progress: cmd.progress };
    const check = (files: string[], count: (file: string) => void): Promise<FileReport[]> => diagnoseAll(api, files, cmd, plan, count);
    const previous = plan.watchListings ?? new Map<string, string[]>();
    const work = { fileSet, handled, listings, isTypeScriptFile, listPrograms: choice !== undefined, prestarted, check };
    let done = await checkWatchRun(api, io, run, { ...work, recheck: selection.recheck, kept: selection.kept, previous });
    checked = done.reports;
    let asked = done.asked;
    if (selection.deferred === true) {
      // the importers were kept on the condition that the changed files' declarations did not change (decision 0109);
      // interrupted, none is kept (the interrupt leaves the files not asked out of the report)
      const changed = new Set(selection.recheck ?? []);
      const settled = await affected.settle(checked.filter((report) => changed.has(report.path)));
      if (settled.reason !== undefined && cmd.logLevel === 'debug') io.stderr.write(`debug: re-checking the importers: ${settled.reason}\n`);
      if (settled.recheck.length > 0) {
        done = await checkWatchRun(api, io, run, { ...work, recheck: settled.recheck, kept: checked, previous });
        checked = done.reports;
        asked += done.asked;
      }
    }
    affected.diagnosed(checked);
    affected.listed(listings, fileSet.programs);
    if (selection.recheck !== undefined) rechecked = asked;
  }
  // tsc's rule: a program with syntax errors reports those only (TypeScript 7: from its listing).
  if (choice?.kind === 'tsserver' && !aborted(plan.signal)) {
    const packageDir = choice.packageDir;
    const ruled = await applySyntaxFirst(checked, fileSet.programs, (files) => syntaxErrorsIsolated(packageDir, files));
    checked.splice(0, checked.length, ...ruled);
  }
  markStaleOutputs(checked, fileSet, listings, io);
  if (plan.affected !== undefined) checked.splice(0, checked.length, ...plan.affected.unlessOvertaken(checked));
  // After the checks: a file outside `include` that the program imports is checked, not skipped.
  noteSkipped(fileSet, io);
  const checkedPaths = new Set(checked.map((report) => report.path));
  const files = [...compilerReports(fileSet, checkedPaths, judgedEarly, listedAt === undefined ? undefined : { snapshot: await listedAt }), ...checked].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const stopped = stopSignalOf(plan.signal);
  const report: CheckReport = {
    workspaceRoot: plan.workspace,
    cwd: io.cwd,
    severity: cmd.severity,
    waitMs: plan.waitMs,
    files,
    skipped: {
      unconfigured: fileSet.unconfigured,
      ignored: fileSet.ignored,
      programs: fileSet.skippedPrograms.map((program) => program.configPath),
      outsidePyright: fileSet.outsidePyright,
    },
    programs: fileSet.programs.map((program) => program.configPath),
    ...(choice === undefined ? {} : { typescript: { source: choice.source, version: choice.version, path: choice.serverPath, server: choice.kind === 'native' ? 'tsc --lsp' : 'tsserver' } }),
    ...(stopped === undefined ? {} : { interrupted: { signal: stopped, total: handled.length } }),
    ...(rechecked === undefined ? {} : { rechecked }),
  };
  const summary = summarize(report);
  plan.onSummary?.(summary);
  const tool = { name: PACKAGE_NAME, version: PACKAGE_VERSION, informationUri: INFORMATION_URI };
  const text =
    cmd.format === 'json'
      ? formatJson(report, summary, tool)
      : cmd.format === 'sarif'
        ? formatSarif(report, summary, tool, cmd.sarifCategory === undefined ? {} : { category: cmd.sarifCategory })
        : colorEnabled(cmd.pretty, io.env, io.stdout.isTTY === true)
          ? formatPretty(report, summary)
          : formatText(report, summary);
  await writeAll(io.stdout, text);
  plan.timeline.mark('report written');
  // the declaration signatures are taken after the report, while the watch waits for a change
  if (stopped === undefined) {
    void plan.affected?.finished().then((taken) => cmd.logLevel === 'debug' && io.stderr.write(`debug: declaration signatures known for ${plural(taken, 'file')}\n`));
  }
  if (stopped !== undefined) {
    // The text format ends with the interrupted line; the others say it in the document, and here.
    if (cmd.format !== 'text') io.stderr.write(`interrupted (${stopped}): ${summary.files} of ${plural(handled.length, 'file')} checked\n`);
    return signalExitCode(stopped);
  }
  if (checked.length > 0 && summary.notFresh.failed === checked.length) {
    io.stderr.write(`error: no file could be checked (${checked[0]?.error?.code ?? 'failed'}); see the messages above\n`);
    return 2;
  }
  return exitCodeOf(outcomeOf(summary));
}

/**
 * `--watch`: the first full check, then a re-check of what each change reaches, until interrupted.
 * @param booted the composition
 * @param cmd the command
 * @param io streams
 * @param plan the first run's plan
 * @returns the exit code when the watch ends
 */
export async function watchWith(booted: BootedComposition, cmd: CheckCommand, io: CliIo, plan: CheckPlan): Promise<number> {
  const { nodeWorkspaceWatch } = await import('../documents/node-workspace-watcher.ts');
  const filePlan = new PlanCache<FileSet>();
  const affected = new WatchAffected();
  const watchListings = new Map<string, string[]>();
  return await watchChecks({
    checkOnce: (onSummary, changes) => {
      filePlan.changed(changes);
      affected.begin(changes);
      return checkWith(booted, cmd, io, { ...plan, onSummary, filePlan, affected, watchListings }).finally(() => (filePlan.ran = true));
    },
    onChanges: () => affected.noteChanges(),
    onWatchDegraded: () => affected.watcherDegraded(),
    watch: nodeWorkspaceWatch(),
    workspace: plan.workspace,
    io,
    signal: plan.signal,
    clearScreen: io.stdout.isTTY === true && colorEnabled(cmd.pretty, io.env, true),
  });
}

/**
 * The TypeScript the booted table really runs: a `--servers` (or `--config`) entry that sets its
 * own `tsserver.path` wins over the choice; no TypeScript server at all means none.
 */
function effectiveTypeScript(api: LspActionsApi, choice: TypeScriptChoice): TypeScriptChoice | undefined {
  const entry = api.config.servers[EMBEDDED_TYPESCRIPT_ID];
  if (entry === undefined) return undefined;
  const options = entry.initializationOptions as { tsserver?: { path?: unknown } } | undefined;
  const path = options?.tsserver?.path;
  if (choice.kind === 'native' || typeof path !== 'string' || resolve(path) === choice.serverPath) return choice;
  const packageDir = resolve(path, '..', '..');
  const found = inspectTypeScript(packageDir);
  if ('problem' in found) return { source: 'user', kind: 'tsserver', version: 'unknown', packageDir, serverPath: resolve(path) };
  return { source: 'user', packageDir, ...found };
}

function noteSkipped(fileSet: FileSet, io: CliIo): void {
  const examples = (paths: string[]): string =>
    paths
      .slice(0, EXAMPLES)
      .map((path) => displayPath(path, io.cwd))
      .join(', ') + (paths.length > EXAMPLES ? ', …' : '');
  if (fileSet.unconfigured.length > 0) {
    io.stderr.write(
      `note: skipped ${plural(fileSet.unconfigured.length, 'file')} in no tsconfig.json program (${examples(fileSet.unconfigured)}); --include-unconfigured checks them\n`,
    );
  }
  if (fileSet.skippedPrograms.length > 0) {
    const configs = fileSet.skippedPrograms.map((program) => program.configPath);
    io.stderr.write(
      `note: skipped ${plural(configs.length, 'tsconfig program')} nested under the given path that its own tsconfig does not reference (${examples(configs)}); --all-programs checks them\n`,
    );
  }
  if (fileSet.outsidePyright.length > 0) {
    const configs = fileSet.pyrightConfigs.map((path) => displayPath(path, io.cwd)).join(', ');
    io.stderr.write(`note: skipped ${plural(fileSet.outsidePyright.length, 'Python file')} that the pyright configuration (${configs}) does not check (${examples(fileSet.outsidePyright)})\n`);
  }
  if (fileSet.ignored.length > 0) {
    io.stderr.write(`note: skipped ${plural(fileSet.ignored.length, 'path')} ignored by .gitignore (${examples(fileSet.ignored)})\n`);
  }
  for (const dir of fileSet.gitignoreUnread) {
    io.stderr.write(`note: ${displayPath(dir, io.cwd)}/.gitignore not applied: git could not list ignored files there (not a git work tree, or git not on PATH)\n`);
  }
  if (fileSet.programs.length === 0 && fileSet.inferred.length > 0) {
    io.stderr.write(`note: no tsconfig.json or jsconfig.json covers ${plural(fileSet.inferred.length, 'TypeScript/JavaScript file')}; checked in inferred projects\n`);
  }
}

/**
 * Starts the TypeScript server of the first given path's program while the file set is planned
 * (reading tsconfig files, asking git): its start overlaps that work instead of following it.
 * Only when a tsconfig/jsconfig covers the path, so a tree without TypeScript starts nothing, and
 * not for a solution's root config (`"files": []`, only references): that server would have no
 * file to check. With `warm` (TypeScript 7, the early plan's walk), the server is warm-started:
 * its project loads while the listing runs, and its epoch proves the answers (warm-typescript.ts).
 * @returns the file the server was started for, and the start (settled, never rejected)
 */
function prestartTypeScript(
  api: LspActionsApi,
  cmd: CheckCommand,
  io: CliIo,
  plan: CheckPlan,
  warm: Pick<WarmInputs, 'walked' | 'isTypeScriptFile'> | undefined,
): StartedTypeScript | undefined {
  if (typeof api.engine.prestart !== 'function') return undefined;
  const anchor = typeScriptAnchor(cmd, io.cwd, plan.workspace, (path) => api.engine.serversFor(path, plan.workspace).includes(EMBEDDED_TYPESCRIPT_ID));
  if (anchor === undefined) return undefined;
  if (warm !== undefined) {
    const warmed = warmTypeScript({ engine: api.engine, anchor, workspace: plan.workspace, rootMarkers: PROGRAM_ROOT_MARKERS, signal: plan.signal, timeline: plan.timeline, ...warm });
    // the engine took the server started before the boot during this start, or never will
    void warmed.started.then(() => plan.earlyServer?.releaseUnused());
    return warmed;
  }
  // A failed start is reported by the first real request for the files; nothing to say here.
  const started = api.engine
    .prestart(EMBEDDED_TYPESCRIPT_ID, anchor, plan.workspace, plan.signal === undefined ? {} : { signal: plan.signal })
    .then(() => plan.timeline.mark('server ready'))
    .catch(() => undefined);
  return { anchor, started };
}

/**
 * A program judged against another project's build output older than that project's source is
 * not judged as `tsc -b` judges it (it builds that project first): its files are `stale`, with
 * the output named (stale-build-outputs.ts).
 */
function markStaleOutputs(checked: FileReport[], fileSet: FileSet, listings: ReadonlyMap<string, string[]>, io: CliIo): void {
  for (const program of fileSet.programs) {
    const listed = listings.get(program.configPath);
    if (listed === undefined) continue;
    const stale = staleOutputsRead(program, listed, fileSet.programs);
    const first = stale[0];
    if (first === undefined) continue;
    const message =
      `judged against ${displayPath(first.output, io.cwd)}, older than its source ${displayPath(first.source, io.cwd)}` +
      (stale.length > 1 ? ` (and ${plural(stale.length - 1, 'other build output')})` : '') +
      `: tsc -b builds ${displayPath(first.project, io.cwd)} first; build it, or add it to ${displayPath(program.configPath, io.cwd)}'s references so its source is read`;
    io.stderr.write(`warning: ${displayPath(program.configPath, io.cwd)} ${message}\n`);
    const members = new Set(program.files);
    for (const [index, report] of checked.entries()) {
      if (!members.has(report.path) || report.state !== 'fresh') continue;
      checked[index] = { ...report, state: 'stale', error: { code: 'STALE_BUILD_OUTPUT', message } };
    }
  }
}

/**
 * @param programs the programs checked
 * @returns files every program of which stops before checking ({@link TsProgram.stops})
 */
export function filesOnlyInStoppedPrograms(programs: readonly TsProgram[]): Set<string> {
  const going = new Set<string>();
  const stopped = new Set<string>();
  for (const program of programs) for (const file of program.files) (program.stops === true ? stopped : going).add(file);
  for (const file of going) stopped.delete(file);
  return stopped;
}

/** Files per `diagnosticsMany` call: progress and an interrupt keep whole batches. */
export const BATCH_SIZE = 50;
/** Extra time a batch may take per file beyond the run's slack (a loaded machine, a cold project). */
const PER_FILE_SLACK_MS = 2_000;

/** Files checked in batches of {@link BATCH_SIZE}, `--jobs` batches at once; `count` is told of each file as it is answered. */
async function diagnoseAll(api: LspActionsApi, files: string[], cmd: CheckCommand, plan: CheckPlan, count: (file: string) => void): Promise<FileReport[]> {
  const answered = (file: string): void => {
    plan.timeline.mark('first answer');
    count(file);
  };
  const batches: string[][] = [];
  for (let i = 0; i < files.length; i += BATCH_SIZE) batches.push(files.slice(i, i + BATCH_SIZE));
  const results: Array<FileReport[] | undefined> = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batches.length && !aborted(plan.signal)) {
      const index = next++;
      const batch = batches[index] as string[];
      const reports = await diagnoseBatch(api, batch, cmd, plan, answered);
      // Files the interrupt cut short were not checked: they are left out, not reported failed.
      if (aborted(plan.signal)) return;
      results[index] = reports;
      for (const file of batch) answered(file);
    }
  };
  await Promise.all(Array.from({ length: Math.min(cmd.jobs, batches.length) }, worker));
  plan.timeline.mark('all answers');
  return results.flatMap((r) => r ?? []);
}

/**
 * One batch through the engine's `diagnosticsMany` (tsserver-backed files are asked without
 * opening each; other files one by one). The CLI has checked that every path is inside the
 * workspace, and `check` only reads.
 */
async function diagnoseBatch(api: LspActionsApi, files: string[], cmd: CheckCommand, plan: CheckPlan, onAnswered?: (file: string) => void): Promise<FileReport[]> {
  // A composition whose engine has no batch entry (an older or a custom plugin): file by file.
  if (typeof api.engine.diagnosticsMany !== 'function') {
    const out: FileReport[] = [];
    for (const file of files) {
      out.push(await diagnoseOne(api, file, cmd, plan));
      onAnswered?.(file);
    }
    return out;
  }
  const timeout = AbortSignal.timeout(plan.waitMs + RUN_SLACK_MS + PER_FILE_SLACK_MS * files.length);
  const signal = plan.signal ? AbortSignal.any([plan.signal, timeout]) : timeout;
  try {
    const minSeverity = (SEVERITY_NAMES.indexOf(cmd.severity) + 1) as 1 | 2 | 3 | 4;
    const epoch = await plan.epoch;
    const entries = await api.engine.diagnosticsMany(plan.workspace, files, {
      signal,
      waitMs: plan.waitMs,
      minSeverity,
      ...(onAnswered === undefined ? {} : { onAnswered }),
      ...(epoch === undefined ? {} : { epoch }),
    });
    return entries.map((entry) =>
      'error' in entry
        ? failedFileReport(entry.path, Object.assign(new Error(entry.error.message), { code: entry.error.code }))
        : fileReportFrom(
            entry.path,
            {
              diagnostics: entry.diagnostics.map(toWireDiagnostic),
              truncated: false,
              state: entry.state,
              servers: entry.servers.map(toWireServerStatus),
            },
            cmd.severity,
          ),
    );
  } catch (error) {
    return files.map((file) => failedFileReport(file, error));
  }
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** The check reports every diagnostic; the plugin's model-facing cap does not apply here. */
const CHECK_MAX_ITEMS = 1_000_000;

async function diagnoseOne(api: LspActionsApi, file: string, cmd: CheckCommand, plan: CheckPlan): Promise<FileReport> {
  const timeout = AbortSignal.timeout(plan.waitMs + RUN_SLACK_MS);
  const signal = plan.signal ? AbortSignal.any([plan.signal, timeout]) : timeout;
  try {
    const result = await api.runner.run({
      action: 'diagnostics.get',
      // `maxItems`: a check reports everything, whatever cap the composition gives the model tools.
      params: { filePath: file, workspaceRoot: plan.workspace, waitMs: plan.waitMs, maxItems: CHECK_MAX_ITEMS },
      signal,
      toolName: 'dsh-lsp-actions check',
    });
    return fileReportFrom(file, result, cmd.severity);
  } catch (error) {
    return failedFileReport(file, error);
  }
}
