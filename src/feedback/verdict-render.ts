/**
 * The text appended to a write's result: one `LSP:` summary line, then the problems worst first
 * (`path:line:col severity message [source code]`, one-based), capped by items and characters.
 * Pending and failed checks are said as such, never as clean. Pure.
 *
 * Examples:
 *   LSP: 1 new error — src/report.ts:7:23 error Cannot find name 'pointt'. [typescript 2552]
 *   LSP: no new problems (1 resolved)
 *   LSP: no new problems in the files compared; dependents of src/is.ts pending (40 files without a fresh result within 3000 ms); call lsp_diagnostics to check them
 */
import type { WireDiagnostic } from '../actions/action-results.ts';
import { displayPath, oneBasedPosition, plural } from '../tools/locations.ts';
import { severityName } from '../tools/diagnostics-render.ts';
import { oneLine, renderBoundedList } from '../tools/text-budget.ts';
import { isSyntaxProblem, type EditVerdict, type FileRole, type FileVerdict } from './edit-verdict.ts';

/** Longest message kept on one line. */
const MAX_MESSAGE_CHARS = 300;

/** Caps of the appended text. */
export interface VerdictLimits {
  maxItems: number;
  maxChars: number;
}

/**
 * @param root workspace root
 * @param path absolute path
 * @param d a diagnostic
 * @returns `path:line:col severity message [source code]`
 */
export function verdictItem(root: string, path: string, d: WireDiagnostic): string {
  const origin = [d.source, d.code].filter((part) => part !== undefined && part !== '').join(' ');
  return `${displayPath(root, path)}:${oneBasedPosition(d.range.start)} ${severityName(d.severity)} ${oneLine(d.message, MAX_MESSAGE_CHARS)}${origin === '' ? '' : ` [${origin}]`}`;
}

/**
 * @param list problems
 * @param adjective e.g. `new`, or empty
 * @returns e.g. `1 new error, 2 new warnings`
 */
function counted(list: readonly WireDiagnostic[], adjective: string): string {
  const words = ['error', 'warning', 'info', 'hint'];
  const lead = adjective === '' ? '' : `${adjective} `;
  return words
    .map((word, i) => [list.filter((d) => Math.min(Math.max(d.severity, 1), 4) === i + 1).length, word] as const)
    .filter(([n]) => n > 0)
    .map(([n, word]) => `${n} ${lead}${word === 'info' ? (n === 1 ? 'info' : 'infos') : n === 1 ? word : `${word}s`}`)
    .join(', ');
}

/** @returns whether every file the verdict covers was judged fresh */
export function isComplete(verdict: EditVerdict): boolean {
  return (
    verdict.pending === 0 &&
    verdict.unknownDependents.length === 0 &&
    verdict.loading !== true &&
    verdict.files.every((f) => f.state === 'fresh' || f.role === 'dependent')
  );
}

/** @returns up to three display paths, then how many more */
function named(root: string, paths: readonly string[]): string {
  const shown = paths.slice(0, 3).map((p) => displayPath(root, p));
  return paths.length > 3 ? `${shown.join(', ')} and ${paths.length - 3} more` : shown.join(', ');
}

/** @returns the summary phrases of the verdict, in order: a project still loading, failed checks, what was judged, then what is not known */
function phrases(verdict: EditVerdict): string[] {
  const { root } = verdict;
  const out: string[] = [];
  if (verdict.loading) {
    out.push(`not judged yet: the project is still loading (no fresh result within ${verdict.waitMs} ms); changes made meanwhile are judged with the first edit after it has loaded`);
  }
  for (const f of verdict.files.filter((file) => file.state === 'failed')) {
    out.push(`check of ${displayPath(root, f.path)} failed: ${oneLine(f.error?.message ?? 'unknown error', MAX_MESSAGE_CHARS)} (${f.error?.code ?? 'unknown'})`);
  }
  const complete = isComplete(verdict);
  const compared = verdict.files.filter((f) => f.state === 'fresh' && f.compared);
  const unknownNow = verdict.files.some((f) => f.state === 'fresh' && !f.compared && f.added.length > 0);
  if (compared.length > 0 || (complete && !unknownNow && verdict.dependentsChecked > 0)) {
    const added = compared.flatMap((f) => f.added);
    const resolved = compared.reduce((sum, f) => sum + f.resolved, 0);
    const files = new Set(compared.filter((f) => f.added.length > 0).map((f) => f.path));
    const where = files.size > 1 ? ` in ${plural(files.size, 'file')}` : '';
    // files without an earlier check that have problems now: "no new problems" would hide them
    const clean = complete && !unknownNow ? 'no new problems' : 'no new problems in the files compared';
    const head = added.length > 0 ? `${counted(added, 'new')}${where}` : clean;
    // how many dependents were checked backs a clean verdict; a list of problems speaks for itself
    const checked = added.length === 0 && !unknownNow && verdict.dependentsChecked > 0 ? [`${plural(verdict.dependentsChecked, 'other file')} checked`] : [];
    const notes = [...(resolved > 0 ? [`${resolved} resolved`] : []), ...checked];
    out.push(notes.length > 0 ? `${head} (${notes.join(', ')})` : head);
  }
  for (const f of verdict.files.filter((file) => file.state === 'fresh' && !file.compared)) {
    const now = f.added.length > 0 ? counted(f.added, '') : 'no problems';
    out.push(`${displayPath(root, f.path)} has ${now} (no earlier check to compare with)`);
  }
  for (const f of verdict.files.filter((file) => file.state === 'pending' && !verdict.loading)) {
    out.push(`${displayPath(root, f.path)} diagnostics pending (no fresh result within ${verdict.waitMs} ms)`);
  }
  if (verdict.pending > 0) {
    const of = verdict.pendingOf.length > 0 ? `dependents of ${named(root, verdict.pendingOf)}` : 'files affected by earlier changes';
    out.push(`${of} pending (${plural(verdict.pending, 'file')} without a fresh result within ${verdict.waitMs} ms)`);
  }
  if (verdict.unknownDependents.length > 0) {
    out.push(`dependents of ${named(root, verdict.unknownDependents)} not known (their server cannot list them)`);
  }
  if (verdict.pending > 0 || verdict.files.some((f) => f.state === 'pending')) out.push('call lsp_diagnostics to check them');
  return out;
}

const ROLE_ORDER: Record<FileRole, number> = { written: 0, changed: 1, dependent: 2 };

/**
 * @param verdict the verdict
 * @returns the problems to list: errors before warnings, syntax errors (root causes) first among
 *   equals, then written files before changed ones before dependents, then by path and position
 */
function items(verdict: EditVerdict): Array<{ file: FileVerdict; d: WireDiagnostic }> {
  const all = verdict.files.filter((f) => f.state === 'fresh').flatMap((file) => file.added.map((d) => ({ file, d })));
  return all.toSorted(
    (a, b) =>
      a.d.severity - b.d.severity ||
      Number(isSyntaxProblem(b.d)) - Number(isSyntaxProblem(a.d)) ||
      ROLE_ORDER[a.file.role] - ROLE_ORDER[b.file.role] ||
      (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0) ||
      a.d.range.start.line - b.d.range.start.line ||
      a.d.range.start.character - b.d.range.start.character,
  );
}

/**
 * @param verdict the verdict on one call's writes
 * @param limits item and character caps
 * @returns the text to append to the call's result
 */
export function renderVerdict(verdict: EditVerdict, limits: VerdictLimits): string {
  const summary = `LSP: ${phrases(verdict).join('; ')}`;
  const listed = items(verdict).map(({ file, d }) => verdictItem(verdict.root, file.path, d));
  const shown = listed.slice(0, limits.maxItems);
  if (listed.length === 1 && !summary.includes(';')) {
    const inline = `${summary} — ${shown[0]}`;
    if (inline.length <= limits.maxChars) return inline;
  }
  return renderBoundedList({ head: [summary], items: shown, alreadyOmitted: listed.length - shown.length, noun: 'problems' }, limits.maxChars).text;
}

/**
 * @param message what went wrong
 * @param maxChars the character cap
 * @returns the one-line note appended when the feedback itself failed
 */
export function renderFailureNote(message: string, maxChars: number): string {
  return oneLine(`LSP: check failed (${message}); the write itself succeeded`, maxChars);
}

/**
 * @param maxChars the character cap
 * @returns the short line for a change made while the project is still loading, after the
 *   session was told so once (no budget is spent on it)
 */
export function renderLoadingMark(maxChars: number): string {
  return oneLine('LSP: pending: the project is still loading; this change is judged with the first edit after it has loaded', maxChars);
}
