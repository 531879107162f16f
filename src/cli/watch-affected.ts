/**
 * `check --watch`: which files a re-check asks the warm servers about, and which keep the
 * previous run's report. The rule is edit feedback's ({@link findDependents}): a changed file
 * reaches the files that import it, transitively, as the compiler's own project resolves them
 * (tsserver's `fileReferences`). Everything else keeps its report — only when that is provably
 * safe; any doubt re-checks the whole file set, as before (docs/decisions/0106-watch-affected.md):
 *
 * - the previous run finished and the plan was reused (no file created or deleted, no config,
 *   `.gitignore` or `package.json` touched: {@link PlanCache}), the watcher missed nothing;
 * - every changed file is a TypeScript-server file in exactly one program's listing (the
 *   server's `projectFiles` of the previous run, every checked program listed, every planned
 *   TypeScript file in a listing), that program's config is the nearest one above the file (so
 *   tsserver's own config search lands on it);
 * - neither the text now nor the text the previous verdicts were judged against is a script or
 *   holds `declare global`/`declare module` ({@link isGlobalScope}): such a change reaches every
 *   file. The old text's scope is remembered with the file's stat signature; a file that changed
 *   while a run judged it (the signature at the run's end differs) has no known old scope;
 * - every file the programs read where the watcher cannot see it (node_modules, outside the
 *   workspace, an extended config) is proven unchanged ({@link UnwatchedFiles});
 * - the server answered the importers question for every changed file (none `unknown`), and
 *   the importers reached are fewer than half the planned files (else asking all costs the same);
 * - a kept report was `fresh`, and of a file only the TypeScript server judges (another server,
 *   say a linter or pyright, cannot say what reaches its files); anything else is asked again.
 *
 * Where every changed file's declaration signature is known for the text the kept verdicts were
 * judged with (watch-declarations.ts, docs/decisions/0109-watch-declaration-signatures.md), the
 * importers are not walked at first: the run asks the changed files only ({@link
 * AffectedSelection.deferred}), then {@link WatchAffected.settle} compares their new signatures
 * — `tsc --watch`'s builder rule — and asks the importers (as above) only when one changed or
 * is not known. A kept report with a related location in a changed file is asked again anyway
 * (its line numbers there may have moved).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import type { DeclarationSignature, LspEngineApi } from '../lsp/engine-types.ts';
import { type Dependents, findDependents, isGlobalScope } from '../feedback/dependents.ts';
import type { FileChange } from './check-watch.ts';
import type { FileReport } from './check-report.ts';
import { ancestorConfigs } from './typescript-programs.ts';
import { currentSignature, signatureOf, UnwatchedFiles } from './unwatched-files.ts';
import { raceAbort } from '../race-abort.ts';
import { declarationsChanged, WatchDeclarations } from './watch-declarations.ts';

/** Files the compiler reads as TypeScript/JavaScript source (their text can declare globals). */
const SOURCE = /\.[cm]?[jt]sx?$/;

/** What one re-check asks and keeps: `recheck` undefined means the whole file set. */
export interface AffectedSelection {
  /** Planned files to ask the servers about; undefined: all of them. */
  recheck: string[] | undefined;
  /** Reports kept from the previous run (the planned files not re-checked). */
  kept: FileReport[];
  /** Why the whole file set is re-checked (for `--log-level debug`). */
  reason?: string;
  /**
   * The kept reports include the changed files' importers, on the condition that the changed
   * files' declarations did not change: once `recheck` is diagnosed, call {@link WatchAffected.settle}.
   */
  deferred?: true;
}

/** What a selection needs of the run. */
export interface SelectionRun {
  /** The files planned for checking this run (servers known). */
  planned: readonly string[];
  /** Whether this run reuses the previous run's plan. */
  planReused: boolean;
  workspace: string;
  isTypeScriptFile: (path: string) => boolean;
  /**
   * Whether the TypeScript server is the only server judging the file: a file another server
   * judges too (or instead) is asked every run, since only tsserver can say what reaches it.
   */
  onlyTypeScript: (path: string) => boolean;
  engine: Pick<LspEngineApi, 'fileImporters' | 'projectFiles' | 'declarationSignatures'>;
  signal?: AbortSignal | undefined;
}

/** A file's scope as read: whether its text reaches other files without an import, and the stat it was read at. */
interface Scope {
  global: boolean;
  signature: string;
}


/**
 * @param path a file
 * @returns its scope, or undefined when it cannot be read steadily (changed while read, gone)
 */
export function readScope(path: string): Scope | undefined {
  try {
    const before = signatureOf(statSync(path));
    const global = isGlobalScope(readFileSync(path, 'utf8'));
    return signatureOf(statSync(path)) === before ? { global, signature: before } : undefined;
  } catch {
    return undefined;
  }
}

/** A file's text now, or undefined when it cannot be read. */
async function readText(path: string): Promise<string | undefined> {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** One watch's memory of its previous run, and the selection for the next. */
export class WatchAffected {
  /** The raw reports (before syntax-first and stale-output rules) of the last finished run's planned files. */
  private reports = new Map<string, FileReport>();
  /** Program config → its files as its server listed them (last finished run). */
  private listings = new Map<string, string[]>();
  /** Whether every checked program with a planned file was listed in the last run. */
  private listedAll = false;
  private readonly scopes = new Map<string, Scope>();
  /** The last run finished (its reports and listings are the memory); false while one runs. */
  private finishedRun = false;
  private changes: readonly FileChange[] = [];
  /** The files planned for checking this run. */
  private planned = new Set<string>();
  private plannedTypeScript: string[] = [];
  /** The workspace watcher missed changes: nothing kept is trusted again. */
  private blind = false;
  /** Paths of the reports kept by the running selection. */
  private keptPaths = new Set<string>();
  /** When the running run began (ms since the epoch). */
  private startedAt = 0;
  /** Files the programs read that the watcher cannot see (created with the first selection). */
  private unwatched: UnwatchedFiles | undefined;
  /** An unwatched file that moved (or is not proven unchanged) since the previous run began. */
  private moved: string | undefined;
  /** A change was seen since the running run began. */
  private changedSinceBegin = false;
  /** Declaration signatures of the files' texts as judged. */
  private readonly declarations = new WatchDeclarations();
  /** The running run (for settling and recording). */
  private run: SelectionRun | undefined;
  /** A deferred selection's changed files, each with its old text's signature. */
  private deferred: Array<{ path: string; before: DeclarationSignature | undefined }> | undefined;

  /** @param changes what changed since the previous run started; a run begins */
  begin(changes: readonly FileChange[]): void {
    this.changes = changes;
    this.startedAt = Date.now();
    this.changedSinceBegin = false;
    if (!this.finishedRun) {
      this.reports.clear();
      this.listedAll = false;
    }
    this.finishedRun = false;
  }

  /** A change was seen by the workspace watcher (while a run goes on: its kept reports may be overtaken). */
  noteChanges(): void {
    this.changedSinceBegin = true;
  }

  /**
   * @param reports the run's reports, about to be printed
   * @returns them, with the kept ones `stale` when a change came while the run went on: they
   *   were judged before it (the asked ones are `pending` then, by the engine's own rule)
   */
  unlessOvertaken(reports: readonly FileReport[]): FileReport[] {
    if (!this.changedSinceBegin || this.keptPaths.size === 0) return [...reports];
    const error = { code: 'CHANGED_DURING_CHECK', message: 'kept from the previous run, and a file changed during this one; the next re-check asks again' };
    return reports.map((report) => (this.keptPaths.has(report.path) && report.state === 'fresh' ? { ...report, state: 'stale', error } : report));
  }

  /** The watcher reported it can no longer see every change: every later run checks everything. */
  watcherDegraded(): void {
    this.blind = true;
  }

  /**
   * Decides what this run asks the servers; records the scopes of the files as they are now.
   * @param run the planned files, programs, engine
   * @returns the files to re-check (undefined: all) and the reports kept
   */
  async select(run: SelectionRun): Promise<AffectedSelection> {
    // the previous run's signatures (bounded: watch-declarations.ts RECORD_TIMEOUT_MS); an interrupt does not wait
    await raceAbort(this.declarations.recorded(), run.signal);
    this.run = run;
    this.deferred = undefined;
    this.planned = new Set(run.planned);
    this.unwatched ??= new UnwatchedFiles(run.workspace);
    this.moved = this.unwatched.moved();
    this.keptPaths = new Set();
    this.plannedTypeScript = run.planned.filter(run.isTypeScriptFile);
    const sources = this.changes.filter((change) => SOURCE.test(change.path)).map((change) => change.path);
    const old = new Map(sources.map((path) => [path, this.scopes.get(path)] as const));
    this.recordScopes(run, sources);
    const reason = this.whyEverything(run, old);
    if (reason !== undefined) {
      this.declarations.forgetAll();
      return { recheck: undefined, kept: [], reason };
    }
    const before = sources.map((path) => ({ path, before: this.declarations.at(path, (old.get(path) as Scope).signature) }));
    if (typeof run.engine.declarationSignatures === 'function' && before.every((s) => s.before !== undefined && !s.before.global)) {
      return this.deferImporters(run, before);
    }
    const affected = await this.dependentsOf(run, sources);
    if (typeof affected === 'string') {
      this.declarations.forgetAll();
      return { recheck: undefined, kept: [], reason: affected };
    }
    const recheck: string[] = [];
    const kept: FileReport[] = [];
    for (const path of run.planned) {
      const report = this.reports.get(path);
      if (affected.has(path) || report === undefined || report.state !== 'fresh' || !run.onlyTypeScript(path)) recheck.push(path);
      else kept.push(report);
    }
    this.keptPaths = new Set(kept.map((report) => report.path));
    this.declarations.forget(recheck);
    return { recheck, kept };
  }

  /**
   * The changed files (and what is asked every run) now; their importers' reports kept on the
   * condition that their declarations did not change ({@link settle}).
   */
  private deferImporters(run: SelectionRun, before: Array<{ path: string; before: DeclarationSignature | undefined }>): AffectedSelection {
    const sources = new Set(before.map((s) => s.path));
    const recheck: string[] = [];
    const kept: FileReport[] = [];
    for (const path of run.planned) {
      const report = this.reports.get(path);
      if (sources.has(path) || report === undefined || report.state !== 'fresh' || !run.onlyTypeScript(path) || pointsInto(report, sources)) recheck.push(path);
      else kept.push(report);
    }
    this.deferred = before;
    this.keptPaths = new Set(kept.map((report) => report.path));
    this.declarations.forget(recheck);
    return { recheck, kept, deferred: true };
  }

  /**
   * After a deferred selection's files are diagnosed: whether the changed files' declarations
   * are unchanged (their importers' reports stand), else which kept files to ask after all — the
   * changed files' importers, or every kept file when those cannot be found.
   * @param diagnosed the reports of the files this run asked
   * @returns the kept files to ask now (removed from the kept ones), and why
   */
  async settle(diagnosed: readonly FileReport[]): Promise<{ recheck: string[]; reason?: string }> {
    const deferred = this.deferred;
    const run = this.run;
    this.deferred = undefined;
    if (deferred === undefined || run === undefined) return { recheck: [] };
    if (run.signal?.aborted === true) return this.askKeptAgain(() => true, 'the run was interrupted');
    const fresh = new Set(diagnosed.filter((report) => report.state === 'fresh').map((report) => report.path));
    // the new texts' stats: read when this run selected, the server judged them fresh since
    const judgedAt = new Map<string, string>();
    for (const { path } of deferred) {
      const scope = this.scopes.get(path);
      if (scope !== undefined && fresh.has(path)) judgedAt.set(path, scope.signature);
    }
    let now: Map<string, DeclarationSignature>;
    try {
      now = await this.declarations.ask(run.engine, run.workspace, judgedAt, run.signal);
    } catch {
      // interrupted: nothing kept (the caller prints the interrupted report, never throws past it)
      if (isAborted(run.signal)) return this.askKeptAgain(() => true, 'the run was interrupted');
      now = new Map();
    }
    const changed = declarationsChanged(deferred.map((s) => ({ ...s, now: now.get(s.path) })));
    if (changed === undefined) return { recheck: [] };
    if (changed.everything) return this.askKeptAgain(() => true, changed.why);
    let affected: Set<string> | string;
    try {
      affected = await this.dependentsOf(run, deferred.map((s) => s.path));
    } catch (error) {
      if (isAborted(run.signal)) return this.askKeptAgain(() => true, 'the run was interrupted');
      throw error;
    }
    if (typeof affected === 'string') return this.askKeptAgain(() => true, `${changed.why}; ${affected}`);
    return this.askKeptAgain((path) => affected.has(path), changed.why);
  }

  /** Takes the kept files that `which` picks out of the kept ones: the run asks them. */
  private askKeptAgain(which: (path: string) => boolean, reason: string): { recheck: string[]; reason: string } {
    const recheck = [...this.keptPaths].filter(which);
    for (const path of recheck) this.keptPaths.delete(path);
    this.declarations.forget(recheck);
    return { recheck, reason };
  }

  /**
   * @returns the changed files and their transitive importers, or why they cannot be known
   */
  private async dependentsOf(run: SelectionRun, sources: readonly string[]): Promise<Set<string> | string> {
    let found: Dependents;
    try {
      const signal = run.signal ?? new AbortController().signal;
      // once half the planned files are dependents, asking all costs about the same as walking on
      const enough = (files: readonly string[]): boolean => files.length * 2 >= run.planned.length;
      found = await findDependents({ engine: run.engine, readText }, run.workspace, sources.map((path) => ({ path, kind: 'changed', since: 0 })), [], signal, enough);
    } catch (error) {
      if (run.signal?.aborted === true) throw error;
      return `finding the dependents failed: ${(error as Error).message}`;
    }
    if (found.cut === true) return `the change reaches ${found.files.length} or more of the ${run.planned.length} files`;
    if (found.unknown.length > 0) return `no server could say what imports ${found.unknown.join(', ')}`;
    return new Set([...sources, ...found.files]);
  }

  /** Why a selection must re-check every file (undefined when only the affected files need it). */
  private whyEverything(run: SelectionRun, old: ReadonlyMap<string, Scope | undefined>): string | undefined {
    if (this.blind) return 'the workspace watcher is degraded';
    if (!run.planReused) return 'the file set was planned again';
    if (this.moved !== undefined) return `${this.moved}, which the watcher cannot see, changed (or is not known unchanged)`;
    if (this.reports.size === 0) return 'no finished run to keep reports from';
    if (!this.listedAll) return 'a program of the previous run was not listed';
    if (typeof run.engine.fileImporters !== 'function' || typeof run.engine.projectFiles !== 'function') return 'the engine cannot say what imports a file';
    for (const change of this.changes) {
      const path = change.path;
      if (change.kind !== 'changed' || !SOURCE.test(path)) return `${path} ${change.kind}`;
      if (!run.isTypeScriptFile(path)) return `${path} is not served by a TypeScript server`;
      const before = old.get(path);
      if (before === undefined) return `the text ${path} was last judged with is not known`;
      const now = this.scopes.get(path);
      if (before.global || now === undefined || now.global) return `${path} declares globals (or did)`;
      const owners = [...this.listings].filter(([, files]) => files.includes(path)).map(([config]) => config);
      if (owners.length !== 1) return `${path} is in ${owners.length} programs`;
      const nearest = ancestorConfigs(path, run.workspace, existsSync)[0];
      if (nearest === undefined || dirname(nearest) !== dirname(owners[0] as string)) return `${path}'s nearest config is not its program's`;
    }
    return undefined;
  }

  /** Reads the scope of the changed sources and of every known source without one. */
  private recordScopes(run: SelectionRun, changed: readonly string[]): void {
    const inside = (path: string): boolean => path.startsWith(run.workspace + sep) && !path.includes(`${sep}node_modules${sep}`);
    const wanted = new Set(changed);
    for (const path of run.planned) if (SOURCE.test(path) && !this.scopes.has(path)) wanted.add(path);
    for (const files of this.listings.values()) for (const path of files) if (SOURCE.test(path) && inside(path) && !this.scopes.has(path)) wanted.add(path);
    for (const path of wanted) {
      const scope = readScope(path);
      if (scope === undefined) this.scopes.delete(path);
      else this.scopes.set(path, scope);
    }
  }

  /**
   * The run's reports of its planned files, as the servers (or the previous run) gave them.
   * @param reports the planned files' reports, before the run's rules rewrite them
   */
  diagnosed(reports: readonly FileReport[]): void {
    this.reports = new Map(reports.map((report) => [report.path, report]));
  }

  /**
   * @param listings program config → its files as listed this run
   * @param programs the programs checked: each with a planned file must be listed, and each
   *   planned TypeScript-server file must be in a listing (a file in an inferred project has
   *   importers no program's server can name)
   */
  listed(listings: ReadonlyMap<string, string[]>, programs: ReadonlyArray<{ configPath: string; files: readonly string[]; extended?: readonly string[] }>): void {
    this.listings = new Map(listings);
    const listed = new Set([...listings.values()].flat());
    // the configs a program extends are read too (one in node_modules changes no watched file)
    this.unwatched?.listed(new Set([...listed, ...programs.flatMap((program) => program.extended ?? [])]), this.startedAt);
    this.listedAll =
      programs.every((program) => listings.has(program.configPath) || !program.files.some((file) => this.planned.has(file))) &&
      this.plannedTypeScript.every((file) => listed.has(file));
  }

  /**
   * The run ended with its report: its memory is trusted by the next. A file whose stat moved
   * since its scope was read may have been judged with another text: its scope is forgotten.
   * The declaration signatures of the files the run judged are then taken, in the background.
   * @returns once they are (the next selection waits for them too): how many of the run's
   *   files have one
   */
  finished(): Promise<number> {
    for (const [path, scope] of this.scopes) if (currentSignature(path) !== scope.signature) this.scopes.delete(path);
    this.finishedRun = true;
    // the declaration signatures of the files this run judged fresh, for their next edit
    const run = this.run;
    if (run === undefined || typeof run.engine.declarationSignatures !== 'function') return Promise.resolve(0);
    const judgedAt = new Map<string, string>();
    for (const [path, report] of this.reports) {
      const scope = this.scopes.get(path);
      if (scope !== undefined && report.state === 'fresh' && !this.keptPaths.has(path) && run.onlyTypeScript(path)) judgedAt.set(path, scope.signature);
    }
    return this.declarations.record(run.engine, run.workspace, judgedAt);
  }
}

/** Whether a report has a related location in one of the files (its line there may have moved). */
function pointsInto(report: FileReport, files: ReadonlySet<string>): boolean {
  return report.diagnostics.some((diagnostic) => diagnostic.related?.some((related) => files.has(related.path)) === true);
}

/** Whether the signal aborted (read afresh: after an await it may have). */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
