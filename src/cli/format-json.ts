/**
 * `check --format json`: one JSON document on stdout, for scripts.
 *
 * ```json
 * { "tool": {"name", "version"}, "workspaceRoot", "outcome": "clean|errors|incomplete",
 *   "interrupted"?: {signal, checked, total}, "typescript"?: {source, version, path, server},
 *   "programs"?: [tsconfig path…],
 *   "skipped"?: {unconfigured: [path…], ignored: [path…], programs?: [tsconfig path…], outsidePyright?: [path…]},
 *   "summary": {files, errors, warnings, infos, hints, filesWithProblems, notFresh: {pending, stale, failed, unknown, total}},
 *   "files": [{ "path", "absolutePath", "state": "fresh|pending|stale|failed|unknown", "truncated", "error"?,
 *               "diagnostics": [{ "severity", "line", "column", "endLine", "endColumn", "range", "message", "source"?, "code"?,
 *                                 "related"?: [{ "path", "absolutePath", "line", "column", "endLine", "endColumn", "range", "message" }] }] }] }
 * ```
 *
 * `line`/`column`/`endLine`/`endColumn` are one-based (UTF-16 columns, end exclusive); `range`
 * is the same span zero-based, in the LSP convention. `path` is relative to the current
 * directory. Every file checked is listed, also the clean ones, each with its freshness; a
 * tsconfig with problems is listed with `"config": true` (not counted in `summary.files`).
 */
import { type CheckReport, type CheckSummary, outcomeOf } from './check-report.ts';
import { displayPath } from './format-text.ts';

/** Version of this JSON shape; bumped on a breaking change. */
export const JSON_FORMAT_VERSION = 1;

/**
 * @param report the report
 * @param summary its counts
 * @param tool name and version of this tool
 * @returns the JSON document (as a value)
 */
export function jsonReport(report: CheckReport, summary: CheckSummary, tool: { name: string; version: string }): Record<string, unknown> {
  return {
    formatVersion: JSON_FORMAT_VERSION,
    tool,
    workspaceRoot: report.workspaceRoot,
    severity: report.severity,
    waitMs: report.waitMs,
    outcome: outcomeOf(summary, report.interrupted !== undefined),
    ...(report.interrupted ? { interrupted: { signal: report.interrupted.signal, checked: summary.files, total: report.interrupted.total } } : {}),
    ...(report.typescript ? { typescript: report.typescript } : {}),
    ...(report.programs ? { programs: report.programs.map((path) => displayPath(path, report.cwd)) } : {}),
    ...(report.skipped
      ? {
          skipped: {
            unconfigured: report.skipped.unconfigured.map((path) => displayPath(path, report.cwd)),
            ignored: report.skipped.ignored.map((path) => displayPath(path, report.cwd)),
            ...(report.skipped.programs !== undefined && report.skipped.programs.length > 0 ? { programs: report.skipped.programs.map((path) => displayPath(path, report.cwd)) } : {}),
            ...(report.skipped.outsidePyright !== undefined && report.skipped.outsidePyright.length > 0
              ? { outsidePyright: report.skipped.outsidePyright.map((path) => displayPath(path, report.cwd)) }
              : {}),
          },
        }
      : {}),
    summary,
    files: report.files.map((file) => ({
      path: displayPath(file.path, report.cwd),
      absolutePath: file.path,
      state: file.state,
      truncated: file.truncated,
      ...(file.error ? { error: file.error } : {}),
      ...(file.servers ? { servers: file.servers } : {}),
      ...(file.config ? { config: true } : {}),
      diagnostics: file.diagnostics.map((d) => ({
        severity: d.severity,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        endLine: d.range.end.line + 1,
        endColumn: d.range.end.character + 1,
        range: d.range,
        message: d.message,
        ...(d.source === undefined ? {} : { source: d.source }),
        ...(d.code === undefined ? {} : { code: d.code }),
        ...(d.related === undefined
          ? {}
          : {
              related: d.related.map((r) => ({
                path: displayPath(r.path, report.cwd),
                absolutePath: r.path,
                line: r.range.start.line + 1,
                column: r.range.start.character + 1,
                endLine: r.range.end.line + 1,
                endColumn: r.range.end.character + 1,
                range: r.range,
                message: r.message,
              })),
            }),
      })),
    })),
  };
}

/**
 * @param report the report
 * @param summary its counts
 * @param tool name and version of this tool
 * @returns the JSON text, newline-terminated
 */
export function formatJson(report: CheckReport, summary: CheckSummary, tool: { name: string; version: string }): string {
  return `${JSON.stringify(jsonReport(report, summary, tool), null, 2)}\n`;
}
