/**
 * `check --format sarif`: SARIF 2.1.0 for CI code scanning (e.g. GitHub `upload-sarif`).
 *
 * - `tool.driver`: name, version, informationUri, and one rule per `source/code` seen.
 * - `results[]`: `ruleId`/`ruleIndex`, `level` (error → error, warning → warning, info/hint →
 *   note), `message.text`, one physical location: `artifactLocation.uri` relative to the
 *   workspace with `uriBaseId: "%SRCROOT%"` (declared in `originalUriBaseIds`), and a one-based
 *   `region` (columns in UTF-16 code units, `endColumn` exclusive, as `columnKind` says).
 * - Files without a fresh result become `toolExecutionNotifications` of the invocation, whose
 *   `executionSuccessful` is then false: an incomplete run is never reported as a clean one.
 */
import { relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CheckReport, type CheckSummary, type ReportDiagnostic, outcomeOf } from './check-report.ts';

/** The SARIF version written. */
export const SARIF_VERSION = '2.1.0';
/** The schema URI written as `$schema`. */
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** The base id artifact URIs are relative to. */
export const SRCROOT = '%SRCROOT%';

/** Tool identity for `tool.driver`. */
export interface SarifTool {
  name: string;
  version: string;
  informationUri: string;
}

type SarifLevel = 'error' | 'warning' | 'note';

/**
 * @param d a diagnostic
 * @returns its rule id: `source/code`, or `source` without a code (`lsp` without a source)
 */
export function ruleIdOf(d: ReportDiagnostic): string {
  const source = d.source ?? 'lsp';
  return d.code === undefined || d.code === '' ? source : `${source}/${d.code}`;
}

function levelOf(d: ReportDiagnostic): SarifLevel {
  return d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'note';
}

/**
 * @param path absolute file path
 * @param root absolute workspace root
 * @returns an artifact location: relative URI + `%SRCROOT%` inside the workspace, an absolute `file:` URI outside
 */
export function artifactLocation(path: string, root: string): { uri: string; uriBaseId?: string } {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || rel.includes(':')) return { uri: pathToFileURL(path).href };
  return { uri: rel.split(sep).map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

/**
 * @param report the report
 * @param summary its counts
 * @param tool tool identity
 * @returns the SARIF log (as a value)
 */
export function sarifLog(report: CheckReport, summary: CheckSummary, tool: SarifTool): Record<string, unknown> {
  const rules: Array<Record<string, unknown>> = [];
  const ruleIndex = new Map<string, number>();
  const results: Array<Record<string, unknown>> = [];
  const notifications: Array<Record<string, unknown>> = [];
  for (const file of report.files) {
    const location = artifactLocation(file.path, report.workspaceRoot);
    if (file.state !== 'fresh') {
      notifications.push({
        level: file.state === 'failed' ? 'error' : 'warning',
        message: { text: notFreshText(file.state, file.error?.message, report.waitMs) },
        locations: [{ physicalLocation: { artifactLocation: location } }],
        ...(file.error ? { descriptor: { id: file.error.code } } : {}),
      });
    }
    for (const d of file.diagnostics) {
      const id = ruleIdOf(d);
      let index = ruleIndex.get(id);
      if (index === undefined) {
        index = rules.length;
        ruleIndex.set(id, index);
        rules.push({
          id,
          shortDescription: { text: d.code === undefined ? `${d.source ?? 'language server'} diagnostic` : `${d.source ?? 'language server'} ${d.code}` },
          defaultConfiguration: { level: levelOf(d) },
        });
      }
      results.push({
        ruleId: id,
        ruleIndex: index,
        level: levelOf(d),
        message: { text: d.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: location,
              region: {
                startLine: d.range.start.line + 1,
                startColumn: d.range.start.character + 1,
                endLine: d.range.end.line + 1,
                endColumn: d.range.end.character + 1,
              },
            },
          },
        ],
      });
    }
  }
  return {
    $schema: SARIF_SCHEMA,
    version: SARIF_VERSION,
    runs: [
      {
        tool: { driver: { name: tool.name, version: tool.version, informationUri: tool.informationUri, rules } },
        originalUriBaseIds: { [SRCROOT]: { uri: `${pathToFileURL(report.workspaceRoot).href.replace(/\/?$/, '/')}` } },
        columnKind: 'utf16CodeUnits',
        invocations: [{ executionSuccessful: summary.notFresh.total === 0, toolExecutionNotifications: notifications }],
        results,
        properties: { outcome: outcomeOf(summary), filesChecked: summary.files },
      },
    ],
  };
}

function notFreshText(state: string, error: string | undefined, waitMs: number): string {
  if (state === 'pending') return `no fresh diagnostics within ${waitMs} ms (server still starting or indexing)`;
  if (state === 'stale') return 'only diagnostics for an older version of the file were available';
  if (state === 'failed') return `diagnostics failed: ${error ?? 'unknown failure'}`;
  return 'the result did not say whether it is fresh';
}

/**
 * @param report the report
 * @param summary its counts
 * @param tool tool identity
 * @returns the SARIF text, newline-terminated
 */
export function formatSarif(report: CheckReport, summary: CheckSummary, tool: SarifTool): string {
  return `${JSON.stringify(sarifLog(report, summary, tool), null, 2)}\n`;
}
