/**
 * `check --format sarif`: SARIF 2.1.0 for CI code scanning (e.g. GitHub `upload-sarif`).
 *
 * - `tool.driver`: name, version, informationUri, and one rule per `source/code` seen, each with
 *   `shortDescription`, `fullDescription` and `help` (text and markdown); the TypeScript the run
 *   used is `tool.extensions[0]` and `tool.driver.properties.typescript`.
 * - `results[]`: `ruleId`/`ruleIndex`, `level` (error → error, warning → warning, info/hint →
 *   note), `message.text`, one physical location: `artifactLocation.uri` relative to the
 *   workspace with `uriBaseId: "%SRCROOT%"` (declared in `originalUriBaseIds`), and a one-based
 *   `region` (columns in UTF-16 code units, `endColumn` exclusive, as `columnKind` says).
 * - `relatedLocations`: the server's related locations ("'point' is declared here."), each with
 *   its message and region.
 * - `partialFingerprints` ({@link Fingerprinter}): stable across runs and line shifts.
 * - `automationDetails.id`: `dsh-lsp-actions/check/` or, with `--sarif-category NAME`,
 *   `dsh-lsp-actions/check/NAME/` (the trailing `/` makes the whole id the category, as GitHub
 *   reads it; several SARIF files uploaded for one commit need distinct categories).
 * - Files without a fresh result become `toolExecutionNotifications` of the invocation, whose
 *   `executionSuccessful` is then false: an incomplete run is never reported as a clean one.
 */
import { relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CheckReport, type CheckSummary, type ReportDiagnostic, outcomeOf } from './check-report.ts';
import { cachedDiskReader, Fingerprinter, type TextReader } from './sarif-fingerprints.ts';

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

/** Options of {@link sarifLog}. */
export interface SarifOptions {
  /** `--sarif-category`: appended to the automation id's category. */
  category?: string;
  /** Where file texts come from (for fingerprints); default: the disk. */
  readText?: TextReader;
}

/** The automation id's fixed prefix. */
export const AUTOMATION_PREFIX = 'dsh-lsp-actions/check';

/**
 * @param category `--sarif-category`, if given
 * @returns `runs[0].automationDetails.id`, ending in `/` (all of it is the category)
 */
export function automationId(category: string | undefined): string {
  const trimmed = category?.replace(/^\/+|\/+$/g, '') ?? '';
  return trimmed === '' ? `${AUTOMATION_PREFIX}/` : `${AUTOMATION_PREFIX}/${trimmed}/`;
}

type SarifLevel = 'error' | 'warning' | 'note';

function regionOf(range: ReportDiagnostic['range']): Record<string, number> {
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

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
 * @param options category, file reader
 * @returns the SARIF log (as a value)
 */
export function sarifLog(report: CheckReport, summary: CheckSummary, tool: SarifTool, options: SarifOptions = {}): Record<string, unknown> {
  const fingerprints = new Fingerprinter(options.readText ?? cachedDiskReader());
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
        rules.push(ruleFor(id, d));
      }
      results.push({
        ruleId: id,
        ruleIndex: index,
        level: levelOf(d),
        message: { text: d.message },
        locations: [{ physicalLocation: { artifactLocation: location, region: regionOf(d.range) } }],
        ...(d.related === undefined
          ? {}
          : {
              relatedLocations: d.related.map((r, i) => ({
                id: i,
                physicalLocation: { artifactLocation: artifactLocation(r.path, report.workspaceRoot), region: regionOf(r.range) },
                message: { text: r.message },
              })),
            }),
        partialFingerprints: fingerprints.fingerprint(id, file.path, location.uri, d.range.start.line, d.message),
      });
    }
  }
  if (report.interrupted) {
    notifications.push({
      level: 'error',
      message: { text: `interrupted by ${report.interrupted.signal}: ${summary.files} of ${report.interrupted.total} files checked` },
    });
  }
  const driver: Record<string, unknown> = { name: tool.name, version: tool.version, informationUri: tool.informationUri, rules };
  if (report.typescript) driver['properties'] = { typescript: report.typescript };
  return {
    $schema: SARIF_SCHEMA,
    version: SARIF_VERSION,
    runs: [
      {
        tool: {
          driver,
          ...(report.typescript
            ? { extensions: [{ name: 'typescript', version: report.typescript.version, properties: { source: report.typescript.source, path: report.typescript.path } }] }
            : {}),
        },
        automationDetails: { id: automationId(options.category) },
        originalUriBaseIds: { [SRCROOT]: { uri: `${pathToFileURL(report.workspaceRoot).href.replace(/\/?$/, '/')}` } },
        columnKind: 'utf16CodeUnits',
        invocations: [
          { executionSuccessful: summary.notFresh.total === 0 && report.interrupted === undefined, toolExecutionNotifications: notifications },
        ],
        results,
        properties: {
          outcome: outcomeOf(summary, report.interrupted !== undefined),
          filesChecked: summary.files,
          ...(report.skipped ? { filesSkipped: { unconfigured: report.skipped.unconfigured.length, ignored: report.skipped.ignored.length } } : {}),
        },
      },
    ],
  };
}

/**
 * A rule for a diagnostic kind: SARIF consumers (GitHub code scanning among them) show
 * `shortDescription`, `fullDescription` and `help` for every rule. A language server's codes carry
 * no documentation of their own, so the texts say where the code comes from and quote the first
 * message seen for it; each result's own message explains its occurrence.
 * @param id the rule id (`source/code`)
 * @param d the first diagnostic seen with that id
 * @returns the rule descriptor
 */
export function ruleFor(id: string, d: ReportDiagnostic): Record<string, unknown> {
  const source = d.source ?? 'language server';
  const name = d.code === undefined || d.code === '' ? `${source} diagnostic` : `${source} ${d.code}`;
  const example = firstLine(d.message);
  const full = `${name}: ${d.severity === 'error' || d.severity === 'info' ? 'an' : 'a'} ${d.severity} reported by the ${source} language server, for example: ${example}`;
  const help =
    `${name} is reported by the ${source} language server through dsh-lsp-actions check. ` +
    `Each result's message describes the problem at its location. First message seen: ${example}`;
  const markdown =
    `**${escapeMarkdown(name)}** is reported by the \`${escapeMarkdown(source)}\` language server through \`dsh-lsp-actions check\`.\n\n` +
    `Each result's message describes the problem at its location. First message seen:\n\n> ${escapeMarkdown(example)}`;
  return {
    id,
    shortDescription: { text: name },
    fullDescription: { text: full },
    help: { text: help, markdown },
    defaultConfiguration: { level: levelOf(d) },
  };
}

function firstLine(message: string): string {
  return (message.split(/\r?\n/).find((line) => line.trim() !== '') ?? message).trim();
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>|])/g, '\\$1');
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
 * @param options category, file reader
 * @returns the SARIF text, newline-terminated
 */
export function formatSarif(report: CheckReport, summary: CheckSummary, tool: SarifTool, options: SarifOptions = {}): string {
  return `${JSON.stringify(sarifLog(report, summary, tool, options), null, 2)}\n`;
}
