/**
 * The Go garbage collector's pace for the processes a `check` run starts and ends: TypeScript 7's
 * native `tsc --listFilesOnly` and its language server, both Go programs that allocate the whole
 * program's syntax trees within a second and then exit. At Go's default (`GOGC=100`, a collection
 * each time the heap doubles) about a third of the listing's CPU time is collection (rxjs: 0.20 s
 * of CPU, 0.13 s at `GOGC=400`, the same 66 MiB); on a 2-CPU machine that time is taken from the
 * other process of the run. `GOGC=400` collects when the heap has grown fourfold instead of
 * doubled; most of a compiler's heap is live (trees, types), so the peak grows little — measured:
 * rxjs the same, a generated 1,500-file project +7% (957 vs 894 MiB, whole run). A user's own
 * `GOGC` or `GOMEMLIMIT` is left as it is. `serve` and the plugin keep Go's default: their
 * servers live for hours.
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
