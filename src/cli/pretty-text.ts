/**
 * `check`'s pretty text (`--pretty`, the default when stdout is a terminal): the plain text
 * format's lines in colour (path cyan, line:column yellow, the severity in its colour), and
 * under each diagnostic the source line(s) it points at with a `~` squiggle under the span, as
 * `tsc --pretty` prints them; related locations get their own line and excerpt.
 *
 * ```
 * src/app.ts:5:6 error Argument of type '{ x: number; }' is not assignable … [typescript 2345]
 *
 * 5 draw({ x: 1 });
 *        ~~~~~~~~
 *     src/point.ts:3:3 note 'y' is declared here.
 *     3   y: number;
 *         ~
 * ```
 *
 * Colour follows {@link colorEnabled}; the plain format is unchanged unless `--pretty`.
 */
import type { CheckReport, CheckSummary, ReportDiagnostic } from './check-report.ts';
import { displayPath, formatFileState, formatInterrupted, formatSummary, oneLine } from './format-text.ts';
import type { Range } from '../lsp/engine-types.ts';
import { cachedDiskReader, type TextReader } from './sarif-fingerprints.ts';

/** ANSI SGR codes used. */
const SGR = { reset: 0, bold: 1, inverse: 7, red: 31, yellow: 33, blue: 34, cyan: 36, grey: 90 } as const;
/** Source lines shown per diagnostic at most (a longer span ends in `…`). */
const MAX_EXCERPT_LINES = 4;

const paint = (text: string, ...codes: number[]): string => (text === '' ? '' : `\x1b[${codes.join(';')}m${text}\x1b[${SGR.reset}m`);

const SEVERITY_COLOUR: Record<ReportDiagnostic['severity'], number> = { error: SGR.red, warning: SGR.yellow, info: SGR.blue, hint: SGR.grey };

/**
 * Whether `check` writes pretty, coloured text: `--pretty`/`--no-pretty` decide; else
 * `FORCE_COLOR` (set and not `0`/`false`: yes; `0`/`false`: no) — it wins over `NO_COLOR`, as
 * in Node itself —; else `NO_COLOR` (set and non-empty: no); else whether stdout is a terminal.
 * @param flag `--pretty` (true), `--no-pretty` (false), or neither
 * @param env the environment
 * @param stdoutIsTTY whether stdout is a terminal
 * @returns whether to write pretty text
 */
export function colorEnabled(flag: boolean | undefined, env: Readonly<Record<string, string | undefined>>, stdoutIsTTY: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  const none = env['NO_COLOR'];
  if (none !== undefined && none !== '') return false;
  return stdoutIsTTY;
}

/**
 * @param text a source text
 * @param range the span
 * @param indent prefix of every excerpt line
 * @returns the excerpt lines: `N source` with the line number in inverse video, and the squiggle under the span
 */
export function excerpt(text: string, range: Range, indent = ''): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  const start = range.start.line;
  // A span ending at column 0 of a later line ends with the line before.
  const end = range.end.line > start && range.end.character === 0 ? range.end.line - 1 : range.end.line;
  if (start < 0 || start >= lines.length) return [];
  const last = Math.min(end, lines.length - 1, start + MAX_EXCERPT_LINES - 1);
  const width = String(last + 1).length;
  const out: string[] = [];
  for (let n = start; n <= last; n++) {
    const source = lines[n] ?? '';
    const from = n === start ? Math.min(range.start.character, source.length) : firstNonBlank(source);
    const to = n === range.end.line ? Math.min(range.end.character, source.length) : source.length;
    const gutter = paint(String(n + 1).padStart(width), SGR.inverse);
    const blank = paint(' '.repeat(width), SGR.inverse);
    out.push(`${indent}${gutter} ${source}`);
    // Tabs stay tabs in the padding, so the squiggle lines up whatever the tab width.
    const pad = source.slice(0, from).replace(/[^\t]/g, ' ');
    out.push(`${indent}${blank} ${pad}${paint('~'.repeat(Math.max(1, to - from)), SGR.red)}`);
  }
  if (last < end) out.push(`${indent}${paint('…'.padStart(width), SGR.inverse)}`);
  return out;
}

function firstNonBlank(line: string): number {
  const match = /\S/.exec(line);
  return match === null ? 0 : match.index;
}

function head(d: ReportDiagnostic, path: string): string {
  const tag = [d.source, d.code].filter((part) => part !== undefined && part !== '').join(' ');
  const [first = '', ...rest] = d.message.split(/\r?\n/);
  const where = `${paint(path, SGR.cyan)}:${paint(String(d.range.start.line + 1), SGR.yellow)}:${paint(String(d.range.start.character + 1), SGR.yellow)}`;
  const line = `${where} ${paint(d.severity, SGR.bold, SEVERITY_COLOUR[d.severity])} ${first}${tag ? ` ${paint(`[${tag}]`, SGR.grey)}` : ''}`;
  return [line, ...rest.filter((l) => l.trim() !== '').map((l) => `    ${l.trim()}`)].join('\n');
}

/**
 * @param d a diagnostic
 * @param path absolute path of its file
 * @param base directory printed paths are relative to
 * @param read file texts
 * @returns its pretty lines (head, excerpt, related locations with theirs)
 */
export function prettyDiagnostic(d: ReportDiagnostic, path: string, base: string, read: TextReader): string {
  const out = [head(d, displayPath(path, base))];
  const text = read(path);
  if (text !== undefined) out.push('', ...excerpt(text, d.range));
  for (const r of d.related ?? []) {
    const where = `${paint(displayPath(r.path, base), SGR.cyan)}:${paint(String(r.range.start.line + 1), SGR.yellow)}:${paint(String(r.range.start.character + 1), SGR.yellow)}`;
    out.push(`    ${where} ${paint('note', SGR.bold, SGR.grey)} ${oneLine(r.message)}`);
    const related = read(r.path);
    if (related !== undefined) out.push(...excerpt(related, r.range, '    '));
  }
  return `${out.join('\n')}\n`;
}

/**
 * @param report the report
 * @param summary its counts
 * @param read file texts (default: the disk)
 * @returns the whole pretty output, newline-terminated
 */
export function formatPretty(report: CheckReport, summary: CheckSummary, read: TextReader = cachedDiskReader()): string {
  const out: string[] = [];
  for (const file of report.files) {
    const path = displayPath(file.path, report.cwd);
    const state = formatFileState(file, path, report.waitMs);
    if (state !== undefined) out.push(`${paint(path, SGR.cyan)}${paint(state.slice(path.length), SGR.yellow)}`);
    for (const d of file.diagnostics) out.push(prettyDiagnostic(d, file.path, report.cwd, read));
    if (file.truncated) out.push(`${path}: more diagnostics were cut by the plugin's item cap (maxItems)`);
  }
  const last = report.interrupted ? formatInterrupted(summary, report.severity, report.interrupted) : formatSummary(summary, report.severity);
  out.push(summary.errors > 0 || summary.notFresh.total > 0 || report.interrupted ? paint(last, SGR.bold, SGR.red) : paint(last, SGR.bold));
  return `${out.join('\n')}\n`;
}
