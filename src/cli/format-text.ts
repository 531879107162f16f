/**
 * The compiler-style text format of `check`:
 *
 * ```
 * src/app.ts:3:7 error Cannot find name 'Pointt'. Did you mean 'Point'? [typescript 2552]
 * src/slow.py: pending: no fresh diagnostics within 20000 ms (server still starting or indexing)
 * 2 errors, 0 warnings in 1 file (4 files checked)
 * could not get fresh diagnostics for 1 file (1 pending); the result is incomplete
 * ```
 *
 * Lines and columns are one-based (columns count UTF-16 code units, as LSP does); paths are
 * relative to the current directory. Continuation lines of multi-line messages are indented.
 */
import { relative, sep } from 'node:path';
import type { CheckReport, CheckSummary, FileReport, ReportDiagnostic } from './check-report.ts';

/**
 * @param path absolute path
 * @param base directory to be relative to
 * @returns `path` relative to `base`, with `/` separators
 */
export function displayPath(path: string, base: string): string {
  const rel = relative(base, path) || '.';
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/**
 * @param n a count
 * @param word singular noun
 * @returns e.g. `1 error`, `2 errors`
 */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * @param d a diagnostic
 * @param path the printed path
 * @param base directory related locations are printed relative to
 * @returns its line(s); each related location on its own indented line, as
 *   `    path:line:col note message`
 */
export function formatDiagnostic(d: ReportDiagnostic, path: string, base?: string): string {
  const tag = [d.source, d.code].filter((part) => part !== undefined && part !== '').join(' ');
  const [first = '', ...rest] = d.message.split(/\r?\n/);
  const head = `${path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${first}${tag ? ` [${tag}]` : ''}`;
  const lines = [head, ...rest.filter((line) => line.trim() !== '').map((line) => `    ${line.trim()}`)];
  for (const r of d.related ?? []) {
    const where = base === undefined ? r.path : displayPath(r.path, base);
    lines.push(`    ${where}:${r.range.start.line + 1}:${r.range.start.character + 1} note ${oneLine(r.message)}`);
  }
  return lines.join('\n');
}

/**
 * @param message a message that may span lines
 * @returns its non-empty lines joined by a space
 */
export function oneLine(message: string): string {
  return message
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
}

/**
 * @param file a file that has no fresh result
 * @param path the printed path
 * @param waitMs the wait budget
 * @returns its status line
 */
export function formatFileState(file: FileReport, path: string, waitMs: number): string | undefined {
  switch (file.state) {
    case 'fresh':
      return undefined;
    case 'pending':
      return `${path}: pending: no fresh diagnostics within ${waitMs} ms (server still starting or indexing)`;
    case 'stale':
      // A reason known to the run (e.g. a stale build output read) says more than the generic line.
      return file.error === undefined ? `${path}: stale: the diagnostics shown are for an older version of the file` : `${path}: stale: ${file.error.message}`;
    case 'failed':
      return `${path}: failed: ${file.error?.code ?? 'ERROR'}: ${file.error?.message ?? 'unknown failure'}`;
    case 'unknown':
      return `${path}: unknown: the result did not say whether it is fresh`;
  }
}

/**
 * @param summary the counts
 * @param severity lowest severity reported (info/hint counts only shown when reported)
 * @returns the summary line(s)
 */
export function formatSummary(summary: CheckSummary, severity: string): string {
  const counts = [plural(summary.errors, 'error'), plural(summary.warnings, 'warning')];
  if (severity === 'info' || severity === 'hint') counts.push(plural(summary.infos, 'info'));
  if (severity === 'hint') counts.push(plural(summary.hints, 'hint'));
  const rechecked = summary.rechecked === undefined ? '' : `, ${summary.rechecked} re-checked`;
  const lines = [`${counts.join(', ')} in ${plural(summary.filesWithProblems, 'file')} (${plural(summary.files, 'file')} checked${rechecked})`];
  const nf = summary.notFresh;
  if (nf.total > 0) {
    const parts = (['pending', 'stale', 'failed', 'unknown'] as const).filter((k) => nf[k] > 0).map((k) => `${nf[k]} ${k}`);
    lines.push(`could not get fresh diagnostics for ${plural(nf.total, 'file')} (${parts.join(', ')}); the result is incomplete`);
  }
  return lines.join('\n');
}

/**
 * The one line an interrupted run ends with: how many files were checked before the signal,
 * and what they showed. Files not finished are not counted as checked.
 * @param summary the counts over the finished files
 * @param severity lowest severity reported
 * @param interrupted the signal and how many files the run had planned
 * @returns the line
 */
export function formatInterrupted(summary: CheckSummary, severity: string, interrupted: { signal: string; total: number }): string {
  const counts = [plural(summary.errors, 'error'), plural(summary.warnings, 'warning')];
  if (severity === 'info' || severity === 'hint') counts.push(plural(summary.infos, 'info'));
  if (severity === 'hint') counts.push(plural(summary.hints, 'hint'));
  return `interrupted (${interrupted.signal}): ${summary.files} of ${plural(interrupted.total, 'file')} checked; ${counts.join(', ')} in ${plural(summary.filesWithProblems, 'file')}`;
}

/**
 * @param report the report
 * @param summary its counts
 * @returns the whole text output, newline-terminated
 */
export function formatText(report: CheckReport, summary: CheckSummary): string {
  const out: string[] = [];
  for (const file of report.files) {
    const path = displayPath(file.path, report.cwd);
    const state = formatFileState(file, path, report.waitMs);
    if (state !== undefined) out.push(state);
    for (const d of file.diagnostics) out.push(formatDiagnostic(d, path, report.cwd));
    if (file.truncated) out.push(`${path}: more diagnostics were cut by the plugin's item cap (maxItems)`);
  }
  out.push(report.interrupted ? formatInterrupted(summary, report.severity, report.interrupted) : formatSummary(summary, report.severity));
  return `${out.join('\n')}\n`;
}
