/**
 * The Go runtime settings of the processes a `check` run starts and ends.
 *
 * **The collector's pace.** TypeScript 7's
 * native `tsc --listFilesOnly` and its language server, both Go programs that allocate the whole
 * program's syntax trees within a second and then exit. At Go's default (`GOGC=100`, a collection
 * each time the heap doubles) about a third of the listing's CPU time is collection (rxjs: 0.20 s
 * of CPU, 0.13 s at `GOGC=400`, the same 66 MiB); on a 2-CPU machine that time is taken from the
 * other process of the run. `GOGC=400` collects when the heap has grown fourfold instead of
 * doubled; most of a compiler's heap is live (trees, types), so the peak grows little — measured:
 * rxjs the same, a generated 1,500-file project +7% (957 vs 894 MiB, whole run). A user's own
 * `GOGC` or `GOMEMLIMIT` is left as it is. `serve`, the plugin and `check --watch` keep Go's
 * default for their servers: those live for hours.
 *
 * **The listing's threads.** The listing runs while the server loads the same program and the
 * CLI boots: on 2 CPUs three CPU-bound processes share two cores, and Go's parallel parse costs
 * more CPU in all (rxjs: 0.15 s on 2 threads, 0.10 s on 1, for 0.08 s vs 0.11 s of wall). The
 * listing gets half the cores (at least one); a user's `GOMAXPROCS` is left as it is.
 * See docs/decisions/0112-plan-before-boot.md.
 */

/** The pace `check` gives its Go processes (percent of heap growth between collections). */
export const BATCH_GOGC = '400';

/**
 * @param env the environment the processes would inherit
 * @returns the variables to add (none when the user chose a pace or a limit)
 */
export function batchGoGc(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  if (env['GOGC'] !== undefined || env['GOMEMLIMIT'] !== undefined) return {};
  return { GOGC: BATCH_GOGC };
}

/**
 * @param env the environment the listing would inherit
 * @param cores the machine's cores (`os.availableParallelism()`)
 * @returns the listing's thread count to add (none when the user chose one)
 */
export function listingGoProcs(env: Readonly<Record<string, string | undefined>>, cores: number): Record<string, string> {
  if (env['GOMAXPROCS'] !== undefined) return {};
  return { GOMAXPROCS: String(Math.max(1, Math.floor(cores / 2))) };
}
