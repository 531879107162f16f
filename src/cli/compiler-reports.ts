/**
 * The compiler's early verdicts as reports: config problems, and for programs that stop before
 * checking (a syntax error, an option TypeScript 7 removed) their syntax errors and every file
 * the compiler parsed — as `tsc` prints them, without asking a server.
 *
 * TypeScript 7's verdicts come from its own `tsc --listFilesOnly`, which read the files at some
 * moment during the plan. Such a report is `fresh` only when the file's version now equals the
 * one taken after the walk, before the listing ran ({@link FileSnapshot}): the compiler then read
 * what is there now. A file changed since, or with no version taken before (outside the walk),
 * is `pending` (docs/decisions/0110-warm-project-load.md).
 */
import type { FileSnapshot } from '../lsp/engine-types.ts';
import type { FileReport } from './check-report.ts';
import type { FileSet } from './check-file-set.ts';
import { diskVersion } from './file-snapshot.ts';

/** What the TypeScript compiler reads: scripts (`.d.ts` too) and its configs. */
const TYPESCRIPT_READ = /(?:\.(?:[cm]?[jt]s|[jt]sx)|[/\\](?:tsconfig|jsconfig)\.json)$/;

/**
 * @param fileSet the plan
 * @param checked files a server answered for (its answer has their syntax errors too)
 * @param judged the planned files only programs that stopped have
 * @param listedAt TypeScript 7: the versions taken before its listing ran (undefined inside: none
 *   was taken, nothing of it is proven); undefined: the verdicts are not the listing's (TS ≤ 6)
 * @returns the reports
 */
export function compilerReports(fileSet: FileSet, checked: ReadonlySet<string>, judged: readonly string[], listedAt?: { snapshot: FileSnapshot | undefined }): FileReport[] {
  const state = (path: string): FileReport['state'] => {
    if (listedAt === undefined || !TYPESCRIPT_READ.test(path)) return 'fresh';
    const before = listedAt.snapshot?.versions.get(path);
    return before !== undefined && diskVersion(path) === before ? 'fresh' : 'pending';
  };
  const out: FileReport[] = [];
  for (const [path, diagnostics] of fileSet.configErrors) {
    const isConfig = path.endsWith('.json') || path.endsWith('.toml');
    if (!isConfig && checked.has(path)) continue;
    out.push({ path, state: state(path), diagnostics, truncated: false, ...(isConfig ? { config: true as const } : {}) });
  }
  for (const path of judged) if (!checked.has(path) && !fileSet.configErrors.has(path)) out.push({ path, state: state(path), diagnostics: [], truncated: false });
  return out;
}
