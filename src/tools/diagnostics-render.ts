/**
 * Model-facing text of `lsp_diagnostics`: one compiler-style line per problem
 * (`path:line:col severity source(code): message`, one-based), a header per file that always
 * states freshness (a pending file is never shown as clean), and, with `changes_only`, only the
 * new and resolved problems. Pure; bounded by `maxResultChars` over the complete text.
 */
import type { Freshness } from '../lsp/engine-types.ts';
import type { WireDiagnostic, WireServerStatus } from '../actions/action-results.ts';
import type { DiagnosticsChanges, RememberedDiagnostic } from './diagnostics-memory.ts';
import { displayPath, oneBasedPosition, plural } from './locations.ts';
import { oneLine, renderBoundedList } from './text-budget.ts';

/** One file of the tool's structured result. */
export interface DiagnosticsFileEntry {
  /** As the action returned it: absolute, or workspace-relative. */
  filePath: string;
  state?: Freshness;
  version?: number;
  diagnostics: WireDiagnostic[];
  truncated: boolean;
  total: number;
  servers?: WireServerStatus[];
  error?: { code: string; message: string };
  /** Present with `changes_only`; `baseline: false` when there was no earlier check to compare with. */
  changes?: { baseline: boolean } & DiagnosticsChanges;
}

/** The tool's structured result. */
export interface DiagnosticsToolValue {
  scope: 'file' | 'files' | 'workspace';
  workspaceRoot: string;
  changesOnly: boolean;
  files: DiagnosticsFileEntry[];
  /** Whether any file's list was cut. */
  truncated: boolean;
  /** Diagnostics over all files, before any cap. */
  total: number;
  filesChecked?: number;
  filesSkipped?: number;
  /** The workspace has more source files than a workspace check looks at. */
  moreFiles?: boolean;
}

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

/** Longest message kept on one line. */
const MAX_MESSAGE_CHARS = 400;

/**
 * @param severity wire severity (1–4)
 * @returns its name
 */
export function severityName(severity: number): string {
  return SEVERITY[severity - 1] ?? 'info';
}

/**
 * @param list diagnostics
 * @returns counts by severity, e.g. `2 errors, 1 warning`, or `no problems`
 */
export function severityCounts(list: readonly Pick<WireDiagnostic, 'severity'>[]): string {
  const count = (severity: number): number => list.filter((d) => Math.min(Math.max(d.severity, 1), 4) === severity).length;
  const parts = [
    plural(count(1), 'error'),
    plural(count(2), 'warning'),
    plural(count(3), 'info', 'infos'),
    plural(count(4), 'hint'),
  ].filter((part) => !part.startsWith('0 '));
  return parts.length > 0 ? parts.join(', ') : 'no problems';
}

/**
 * @param d a diagnostic
 * @returns `severity source(code): message` on one line
 */
export function describeDiagnostic(d: RememberedDiagnostic): string {
  const origin = d.source !== undefined && d.code !== undefined ? ` ${d.source}(${d.code})` : d.source !== undefined ? ` ${d.source}` : d.code !== undefined ? ` (${d.code})` : '';
  return `${severityName(d.severity)}${origin}: ${oneLine(d.message, MAX_MESSAGE_CHARS)}`;
}

/**
 * @param root workspace root
 * @param path file path
 * @param d a diagnostic
 * @returns `path:line:col severity source(code): message`
 */
export function formatDiagnostic(root: string, path: string, d: RememberedDiagnostic): string {
  return `${displayPath(root, path)}:${oneBasedPosition(d.range.start)} ${describeDiagnostic(d)}`;
}

/**
 * The header of one file: counts and freshness, worded so pending is never read as clean.
 * @param root workspace root
 * @param file the file's entry
 * @returns one line
 */
export function fileHeader(root: string, file: DiagnosticsFileEntry): string {
  const path = displayPath(root, file.filePath);
  if (file.error) return `${path} — not checked: ${oneLine(file.error.message, MAX_MESSAGE_CHARS)} (${file.error.code})`;
  const counts = file.truncated
    ? `${plural(file.total, 'problem')}, the first ${file.diagnostics.length} listed (${severityCounts(file.diagnostics)})`
    : severityCounts(file.diagnostics);
  const changes = file.changes;
  let summary = counts;
  if (changes?.baseline) {
    summary = changes.added.length === 0 && changes.resolved.length === 0
      ? `no change since your last check; ${counts}`
      : `since your last check: ${changes.added.length} new, ${changes.resolved.length} resolved, ${changes.unchanged} unchanged; now ${file.total === 0 ? 'no problems' : plural(file.total, 'problem')}`;
  } else if (changes) {
    summary = `first check of this file, so everything is listed; ${counts}`;
  }
  const failed = (file.servers ?? []).filter((s) => s.error).map((s) => `${s.serverId} failed: ${oneLine(s.error?.message ?? '', 200)}`);
  const tail = failed.length > 0 ? ` [${failed.join('; ')}]` : '';
  switch (file.state) {
    case 'pending':
      return `${path} — PENDING: the language server has not finished analysing the current content. So far: ${summary}. This is not a clean result; call lsp_diagnostics again shortly.${tail}`;
    case 'stale':
      return `${path} — STALE: from an earlier version of the file; the current content is still being analysed. ${summary}.${tail}`;
    default:
      return `${path} — ${summary} (fresh)${tail}`;
  }
}

/**
 * @param root workspace root
 * @param file one file's entry
 * @returns the item lines of that file: every diagnostic, or with changes only the new (+) and resolved (-) ones
 */
function fileItems(root: string, file: DiagnosticsFileEntry): string[] {
  const changes = file.changes;
  if (changes?.baseline) {
    return [
      ...changes.added.map((d) => `+ ${formatDiagnostic(root, file.filePath, d)}`),
      ...changes.resolved.map((d) => `- ${formatDiagnostic(root, file.filePath, d)} (resolved)`),
    ];
  }
  return file.diagnostics.map((d) => formatDiagnostic(root, file.filePath, d));
}

/**
 * Renders the tool's result within the budget.
 * @param value the structured result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderDiagnostics(value: DiagnosticsToolValue, maxChars: number): string {
  const root = value.workspaceRoot;
  const head: string[] = [];
  if (value.scope === 'workspace') {
    const checked = value.filesChecked ?? value.files.length;
    const skipped = value.filesSkipped ? `, ${plural(value.filesSkipped, 'file')} not checked (limit reached)` : '';
    const more = value.moreFiles && !value.filesSkipped ? '; the workspace has more source files than one check looks at' : '';
    const listed = value.files.length === 0 ? (checked === 0 ? 'nothing to check' : 'none with problems') : `${value.files.length} with problems or not yet analysed, worst first`;
    head.push(`Workspace: ${plural(checked, 'file')} checked, ${listed}${skipped}${more}.`);
    if (value.moreFiles || value.filesSkipped) head.push('Use file_paths to check specific files.');
    if (value.changesOnly) head.push('changes_only applies to file_path / file_paths; the full workspace result follows.');
  }
  const items: string[] = [];
  const counts: number[] = [];
  for (const file of value.files) {
    items.push(fileHeader(root, file));
    counts.push(0);
    for (const line of fileItems(root, file)) {
      items.push(line);
      counts.push(1);
    }
  }
  // Problems a count cap already left out (not rendered, not in `items`).
  const alreadyOmitted = value.files.reduce((sum, f) => sum + (f.changes?.baseline ? 0 : f.total - f.diagnostics.length), 0);
  return renderBoundedList({ head, items, counts, alreadyOmitted, noun: 'diagnostics' }, maxChars).text;
}
