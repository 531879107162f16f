/**
 * Wire ↔ VS Code shapes: positions, ranges, severities, diagnostics (code, source, tags, related
 * information), code-action kinds and order. Pure: the `vscode` namespace is passed in, so the
 * unit specs run it against a thin stand-in.
 */
import { isAbsolute, join } from 'node:path';
import type * as vscode from 'vscode';
import type { WireCodeAction, WireDiagnostic, WirePosition, WireRange } from './wire-types.ts';

/** The parts of the `vscode` namespace the mapping constructs. */
export type VsShapes = Pick<
  typeof vscode,
  'Position' | 'Range' | 'Diagnostic' | 'DiagnosticSeverity' | 'DiagnosticTag' | 'DiagnosticRelatedInformation' | 'Location' | 'Uri' | 'CodeActionKind'
>;

/**
 * @param vs the vscode namespace
 * @param position a wire position (zero-based, UTF-16 — VS Code's own convention)
 * @returns the VS Code position
 */
export function toPosition(vs: VsShapes, position: WirePosition): vscode.Position {
  return new vs.Position(position.line, position.character);
}

/**
 * @param vs the vscode namespace
 * @param range a wire range
 * @returns the VS Code range
 */
export function toRange(vs: VsShapes, range: WireRange): vscode.Range {
  return new vs.Range(toPosition(vs, range.start), toPosition(vs, range.end));
}

/**
 * @param position a VS Code position
 * @returns the wire position
 */
export function fromPosition(position: { line: number; character: number }): WirePosition {
  return { line: position.line, character: position.character };
}

/**
 * @param range a VS Code range
 * @returns the wire range
 */
export function fromRange(range: { start: { line: number; character: number }; end: { line: number; character: number } }): WireRange {
  return { start: fromPosition(range.start), end: fromPosition(range.end) };
}

/**
 * LSP severities are 1 error … 4 hint; VS Code's enum is 0 error … 3 hint. A missing or unknown
 * severity is shown as an error: the LSP default is "the client decides", and hiding a problem
 * is worse than overstating it.
 * @param vs the vscode namespace
 * @param severity the wire severity
 * @returns the VS Code severity
 */
export function toSeverity(vs: VsShapes, severity: number | undefined): vscode.DiagnosticSeverity {
  switch (severity) {
    case 2:
      return vs.DiagnosticSeverity.Warning;
    case 3:
      return vs.DiagnosticSeverity.Information;
    case 4:
      return vs.DiagnosticSeverity.Hint;
    default:
      return vs.DiagnosticSeverity.Error;
  }
}

/**
 * @param file a wire path
 * @param workspaceRoot the folder it is relative to
 * @returns the absolute path
 */
export function absolutePath(file: string, workspaceRoot: string): string {
  return isAbsolute(file) ? file : join(workspaceRoot, file);
}

/**
 * TypeScript's numeric codes are shown as `TS2304`, as tsc prints them. This also keeps VS Code's
 * built-in TypeScript extension from attaching its own quick fixes to our problems (it offers
 * fixes for any diagnostic whose `code` is one of tsserver's numeric fix codes), so each fix is
 * listed once — ours (docs/decisions/0061-vscode-coexistence.md).
 * @param code the server's code
 * @param source the server's source name
 * @returns the code as shown
 */
export function displayCode(code: string | number, source: string | undefined): string | number {
  return typeof code === 'number' && source !== undefined && /^(typescript|ts)$/i.test(source) ? `TS${code}` : code;
}

/**
 * @param vs the vscode namespace
 * @param item a wire diagnostic
 * @param workspaceRoot the folder relative paths are relative to
 * @returns the VS Code diagnostic
 */
export function toDiagnostic(vs: VsShapes, item: WireDiagnostic, workspaceRoot: string): vscode.Diagnostic {
  const diagnostic = new vs.Diagnostic(toRange(vs, item.range), item.message, toSeverity(vs, item.severity));
  if (item.source !== undefined) diagnostic.source = item.source;
  if (item.code !== undefined) diagnostic.code = displayCode(item.code, item.source);
  const tags: vscode.DiagnosticTag[] = [];
  for (const tag of item.tags ?? []) {
    if (tag === 1) tags.push(vs.DiagnosticTag.Unnecessary);
    if (tag === 2) tags.push(vs.DiagnosticTag.Deprecated);
  }
  if (tags.length > 0) diagnostic.tags = tags;
  const related: vscode.DiagnosticRelatedInformation[] = [];
  for (const info of item.relatedInformation ?? []) {
    const file = info.filePath ?? info.location?.filePath;
    const range = info.range ?? info.location?.range;
    if (file === undefined || range === undefined) continue;
    const location = new vs.Location(vs.Uri.file(absolutePath(file, workspaceRoot)), toRange(vs, range));
    related.push(new vs.DiagnosticRelatedInformation(location, info.message));
  }
  if (related.length > 0) diagnostic.relatedInformation = related;
  return diagnostic;
}

/**
 * @param vs the vscode namespace
 * @param kind an LSP code-action kind (`quickfix`, `refactor.extract.function`, `source.organizeImports`)
 * @returns the VS Code kind (the LSP strings are VS Code's own hierarchical values)
 */
export function toCodeActionKind(vs: VsShapes, kind: string | undefined): vscode.CodeActionKind {
  if (kind === undefined || kind === '') return vs.CodeActionKind.QuickFix;
  return vs.CodeActionKind.Empty.append(kind);
}

function rank(a: WireCodeAction): number {
  return a.disabled !== undefined ? 2 : a.isPreferred === true ? 0 : 1;
}

/**
 * Preferred actions first, otherwise the backend's order; disabled ones last.
 * @param actions the listed actions
 * @returns a new, ordered array
 */
export function orderCodeActions(actions: readonly WireCodeAction[]): WireCodeAction[] {
  return actions
    .map((action, position) => ({ action, position }))
    .sort((a, b) => rank(a.action) - rank(b.action) || a.position - b.position)
    .map((entry) => entry.action);
}

/**
 * @param disabled the wire `disabled` field
 * @returns the reason text, or undefined when the action is enabled
 */
export function disabledReason(disabled: WireCodeAction['disabled']): string | undefined {
  if (disabled === undefined) return undefined;
  return typeof disabled === 'string' ? disabled : disabled.reason;
}
