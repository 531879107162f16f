/**
 * The result model of `check`: one entry per file with its freshness, the diagnostics at or
 * above the requested severity, the summary, and the exit code. Pure functions only; the
 * formats (text, JSON, SARIF) render this model.
 *
 * Freshness is never guessed: a file counts as checked only when the engine said `fresh` for
 * the version it analysed. `pending`, `stale`, a failed run, or a result that carries no
 * freshness at all make the run incomplete, and an incomplete run never passes.
 */
import type { Range } from '../lsp/engine-types.ts';
import { SEVERITY_NAMES, type SeverityName } from './parse-args.ts';

/** Per-file outcome. `unknown`: the result said nothing about freshness. */
export type FileState = 'fresh' | 'pending' | 'stale' | 'failed' | 'unknown';

/** One diagnostic as reported (positions zero-based UTF-16, as on the wire). */
export interface ReportDiagnostic {
  severity: SeverityName;
  range: Range;
  message: string;
  source?: string;
  code?: string | number;
  /** Related locations ("'point' is declared here."), as the server gave them. */
  related?: RelatedLocation[];
}

/** A related location of a diagnostic: another place the message refers to. */
export interface RelatedLocation {
  /** Absolute path. */
  path: string;
  /** Zero-based UTF-16 span, as on the wire. */
  range: Range;
  message: string;
}

/** One checked file. */
export interface FileReport {
  /** Absolute path. */
  path: string;
  state: FileState;
  /** Diagnostics at or above the requested severity, in position order. */
  diagnostics: ReportDiagnostic[];
  /** The server's result was cut by the plugin's item cap. */
  truncated: boolean;
  /** Why the file has no (complete) result (state `failed`). */
  error?: { code: string; message: string };
  /** Per-server freshness, when the result said. */
  servers?: ServerStatus[];
  /** A tsconfig/jsconfig file whose problems the compiler reported (not counted as a checked file). */
  config?: true;
}

/** One server's part of a file's result. */
export interface ServerStatus {
  serverId: string;
  state: string;
  error?: { code: string; message: string };
}

/** Everything a format needs. */
export interface CheckReport {
  /** Absolute workspace root. */
  workspaceRoot: string;
  /** Directory printed paths are relative to. */
  cwd: string;
  /** Lowest severity reported. */
  severity: SeverityName;
  /** Wait budget per file for fresh diagnostics. */
  waitMs: number;
  files: FileReport[];
  /**
   * The TypeScript the run used, when it checked TypeScript/JavaScript files: where it comes
   * from, its version, the server's path and which server (`tsserver` through
   * typescript-language-server, or TypeScript 7's own `tsc --lsp`).
   */
  typescript?: { source: string; version: string; path: string; server?: 'tsserver' | 'tsc --lsp' };
  /** Config paths of the tsconfig programs checked. */
  programs?: string[];
  /** What was not checked, and why. */
  skipped?: SkippedFiles;
  /** Set when a signal stopped the run: only the files finished before it are in `files`. */
  interrupted?: { signal: string; total: number };
  /**
   * `check --watch`, a re-check that asked the servers about only the files a change can reach:
   * how many (the other files' reports are the previous run's). Absent when every file was asked.
   */
  rechecked?: number;
}

/** Files and paths `check` left out. */
export interface SkippedFiles {
  /** TypeScript/JavaScript files in no tsconfig program (absolute). */
  unconfigured: string[];
  /** Paths `.gitignore` ignores (absolute). */
  ignored: string[];
  /** Config paths of programs nested under a directory whose own tsconfig does not reference them. */
  programs?: string[];
  /** Python files outside the governing pyright configuration's include/exclude/ignore (absolute). */
  outsidePyright?: string[];
}

/** Counts over a report. */
export interface CheckSummary {
  files: number;
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
  /** Files with at least one reported diagnostic. */
  filesWithProblems: number;
  /** Files without a fresh result, by state. */
  notFresh: { pending: number; stale: number; failed: number; unknown: number; total: number };
  /** {@link CheckReport.rechecked}, when set. */
  rechecked?: number;
}

/** Outcome classes: `clean` (exit 0), `errors` or `incomplete` (exit 1). */
export type CheckOutcome = 'clean' | 'errors' | 'incomplete';

const SEVERITY_BY_NUMBER: Record<number, SeverityName> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

/**
 * @param raw a wire severity: a name (`information` accepted) or an LSP number
 * @returns the severity name; unknown values count as errors (never hide a problem)
 */
export function normalizeSeverity(raw: unknown): SeverityName {
  if (typeof raw === 'number') return SEVERITY_BY_NUMBER[raw] ?? 'error';
  if (raw === 'information') return 'info';
  return (SEVERITY_NAMES as readonly unknown[]).includes(raw) ? (raw as SeverityName) : 'error';
}

/**
 * @param severity a diagnostic's severity
 * @param minimum the lowest severity reported
 * @returns whether it is reported
 */
export function atLeast(severity: SeverityName, minimum: SeverityName): boolean {
  return SEVERITY_NAMES.indexOf(severity) <= SEVERITY_NAMES.indexOf(minimum);
}

function toServerStatus(raw: unknown): ServerStatus | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const s = raw as Record<string, unknown>;
  if (typeof s['serverId'] !== 'string') return undefined;
  const error = s['error'] as { code?: unknown; message?: unknown } | undefined;
  return {
    serverId: s['serverId'],
    state: String(s['state']),
    ...(error ? { error: { code: String(error.code), message: String(error.message) } } : {}),
  };
}

/**
 * Turns a `diagnostics.get` result into a file report. A server that failed makes the file
 * `failed` (its diagnostics from other servers are kept): part of the answer is missing.
 * @param path absolute file path
 * @param result the action's result (`{diagnostics, truncated, state?, …}`)
 * @param minimum lowest severity kept
 * @returns the file report
 */
export function fileReportFrom(path: string, result: unknown, minimum: SeverityName): FileReport {
  const value = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const rawState = value['state'] ?? value['freshness'];
  const state: FileState = rawState === 'fresh' || rawState === 'pending' || rawState === 'stale' ? rawState : 'unknown';
  const list = Array.isArray(value['diagnostics']) ? (value['diagnostics'] as unknown[]) : [];
  const diagnostics = list
    .map(toDiagnostic)
    .filter((d): d is ReportDiagnostic => d !== undefined && atLeast(d.severity, minimum));
  const servers = (Array.isArray(value['servers']) ? (value['servers'] as unknown[]) : [])
    .map(toServerStatus)
    .filter((s): s is ServerStatus => s !== undefined);
  const report: FileReport = { path, state, diagnostics, truncated: value['truncated'] === true };
  if (servers.length > 0) report.servers = servers;
  const broken = servers.find((s) => s.error !== undefined);
  if (broken?.error) {
    report.state = 'failed';
    report.error = { code: broken.error.code, message: `${broken.serverId}: ${broken.error.message}` };
  }
  return report;
}

function toDiagnostic(raw: unknown): ReportDiagnostic | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const d = raw as Record<string, unknown>;
  const range = d['range'] as Range | undefined;
  if (!range?.start || !range.end) return undefined;
  const source = typeof d['source'] === 'string' && d['source'] !== '' ? d['source'] : undefined;
  const code = typeof d['code'] === 'string' || typeof d['code'] === 'number' ? d['code'] : undefined;
  const related = (Array.isArray(d['relatedInformation']) ? (d['relatedInformation'] as unknown[]) : [])
    .map(toRelated)
    .filter((r): r is RelatedLocation => r !== undefined);
  return {
    severity: normalizeSeverity(d['severity']),
    range: { start: { ...range.start }, end: { ...range.end } },
    message: typeof d['message'] === 'string' ? d['message'] : String(d['message']),
    ...(source === undefined ? {} : { source }),
    ...(code === undefined ? {} : { code }),
    ...(related.length === 0 ? {} : { related }),
  };
}

/** A wire related-information item (`{filePath, range, message}`; LSP's `{location: {uri, range}}` also read). */
function toRelated(raw: unknown): RelatedLocation | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const location = (typeof r['location'] === 'object' && r['location'] !== null ? r['location'] : {}) as Record<string, unknown>;
  const path = typeof r['filePath'] === 'string' ? r['filePath'] : typeof location['path'] === 'string' ? location['path'] : undefined;
  const range = (r['range'] ?? location['range']) as Range | undefined;
  if (path === undefined || !range?.start || !range.end) return undefined;
  return { path, range: { start: { ...range.start }, end: { ...range.end } }, message: typeof r['message'] === 'string' ? r['message'] : '' };
}

/**
 * @param path absolute file path
 * @param error what the run threw (an ActionError carries `code`)
 * @returns a `failed` file report
 */
export function failedFileReport(path: string, error: unknown): FileReport {
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : 'ERROR';
  const message = error instanceof Error ? error.message : String(error);
  return { path, state: 'failed', diagnostics: [], truncated: false, error: { code, message } };
}

/**
 * @param report the report
 * @returns counts by severity and by freshness
 */
export function summarize(report: CheckReport): CheckSummary {
  const s: CheckSummary = {
    files: report.files.length,
    errors: 0,
    warnings: 0,
    infos: 0,
    hints: 0,
    filesWithProblems: 0,
    notFresh: { pending: 0, stale: 0, failed: 0, unknown: 0, total: 0 },
    ...(report.rechecked === undefined ? {} : { rechecked: report.rechecked }),
  };
  s.files = report.files.filter((file) => file.config !== true).length;
  for (const file of report.files) {
    if (file.diagnostics.length > 0) s.filesWithProblems += 1;
    for (const d of file.diagnostics) {
      if (d.severity === 'error') s.errors += 1;
      else if (d.severity === 'warning') s.warnings += 1;
      else if (d.severity === 'info') s.infos += 1;
      else s.hints += 1;
    }
    if (file.state !== 'fresh') {
      s.notFresh[file.state] += 1;
      s.notFresh.total += 1;
    }
  }
  return s;
}

/**
 * @param summary the counts
 * @param interrupted whether a signal stopped the run before every file was checked
 * @returns `errors` when an error was reported, else `incomplete` when a file has no fresh result or the run was interrupted, else `clean`
 */
export function outcomeOf(summary: CheckSummary, interrupted = false): CheckOutcome {
  if (summary.errors > 0) return 'errors';
  if (summary.notFresh.total > 0 || interrupted) return 'incomplete';
  return 'clean';
}

/**
 * @param outcome the run's outcome
 * @returns the process exit code: 0 clean, 1 errors or incomplete
 */
export function exitCodeOf(outcome: CheckOutcome): 0 | 1 {
  return outcome === 'clean' ? 0 : 1;
}
