/**
 * One run of `check --watch` on its warm servers, program by program as a one-shot check goes
 * ({@link checkProgramByProgram}, decision 0105), servers never stopped by the run: each program
 * is listed right after its files are checked, while its server is live. The engine keeps at
 * most `maxLiveServers` (8) servers and stops the least recently used one for a new one; a
 * program listed after every program was checked (as the watch once did) was asked on a server
 * started again with no project loaded, and came back `failed`, its imports from outside its
 * `include` unchecked.
 *
 * A re-check of some files (watch-affected.ts) lists again only the programs it can change: one
 * with a file asked, or whose previous listing has one. The others keep the listing of the
 * previous run (their files kept their reports for the same reason), so a re-check does not
 * restart the server of every program in turn. What each program imports from outside its
 * `include` is asked again every run, as before.
 */
import { importedOutsideInclude } from './check-file-set.ts';
import { checkProgramByProgram, type ProgramRun, type ProgramWork } from './check-by-program.ts';
import type { FileReport } from './check-report.ts';
import type { CliIo } from './cli-io.ts';
import type { LspActionsApi } from '../lsp-actions-api.ts';
import type { TsProgram } from './typescript-programs.ts';

/** What one watch run checks, and what it remembers from the previous one. */
export interface WatchRunWork extends Omit<ProgramWork, 'planned' | 'lists'> {
  /** The files to ask again (the other planned files keep `kept`); undefined: every planned file. */
  recheck: readonly string[] | undefined;
  /** The reports kept from the previous run. */
  kept: readonly FileReport[];
  /** Program config → its listing in the previous finished run; replaced by this run's. */
  previous: Map<string, string[]>;
}

/**
 * @param api the booted plugin's services
 * @param io where the progress line goes
 * @param run the run (`watch`: servers kept warm)
 * @param work the planned files (`handled`, extended with what the listings find), the files to re-check, the kept reports
 * @returns the run's reports (kept and asked), and how many files were asked
 */
export async function checkWatchRun(api: LspActionsApi, io: CliIo, run: ProgramRun, work: WatchRunWork): Promise<{ reports: FileReport[]; asked: number }> {
  const { fileSet, handled, listings } = work;
  const planned = new Set(handled);
  const asked = [...(work.recheck ?? handled)];
  const lists = work.listPrograms ? programsToList(fileSet.programs, planned, asked, work.recheck === undefined ? undefined : work.previous) : [];
  const askedSet = new Set(asked);
  // A program listed again without a file asked: its first planned file is asked too (its server loads the project).
  for (const program of lists) {
    if (program.files.some((file) => askedSet.has(file))) continue;
    const member = program.files.find((file) => planned.has(file));
    if (member !== undefined && !askedSet.has(member)) {
      asked.push(member);
      askedSet.add(member);
    }
  }
  const listed = new Set(lists);
  if (work.listPrograms) {
    for (const program of fileSet.programs) {
      const kept = work.previous.get(program.configPath);
      if (listed.has(program) || program.complete === true || kept === undefined) continue;
      listings.set(program.configPath, kept);
      // what it imports from outside its include is asked again, as every run does
      for (const file of importedOutsideInclude(fileSet, kept, work.isTypeScriptFile, new Set([...planned, ...askedSet]), fileSet.whole.has(program.configPath))) {
        asked.push(file);
        askedSet.add(file);
      }
    }
  }
  const imported = new Set(asked.filter((file) => !planned.has(file)));
  fileSet.unconfigured = fileSet.unconfigured.filter((file) => !imported.has(file));
  // the files the listings find are added to `asked` (and taken out of the unconfigured ones) there
  const reports = await checkProgramByProgram(api, io, run, { ...work, handled: asked, planned, lists });
  handled.push(...asked.filter((file) => !planned.has(file)));
  work.previous.clear();
  for (const [config, files] of listings) work.previous.set(config, files);
  return { reports: [...work.kept.filter((report) => !askedSet.has(report.path)), ...reports], asked: asked.length };
}

/**
 * @param programs the run's programs
 * @param planned the files planned
 * @param asked the files asked this run
 * @param previous the previous run's listings; undefined: every program is listed
 * @returns the programs to list (not those TypeScript 7 listed whole, nor those with no planned file)
 */
export function programsToList(programs: readonly TsProgram[], planned: ReadonlySet<string>, asked: readonly string[], previous: ReadonlyMap<string, string[]> | undefined): TsProgram[] {
  const askedSet = new Set(asked);
  return programs.filter((program) => {
    if (program.complete === true || !program.files.some((file) => planned.has(file))) return false;
    const kept = previous?.get(program.configPath);
    return kept === undefined || program.files.some((file) => askedSet.has(file)) || kept.some((file) => askedSet.has(file));
  });
}
