/**
 * Model-facing text of an `lsp_code_action` listing: one numbered block per action (title,
 * kind, the problems it fixes, and a short preview of its edits), numbered from 1 so the model
 * can apply one by `index`. Pure; bounded by `maxResultChars`, each block kept whole.
 */
import type { CodeActionsListResult, EditPreview, TextEdit, WireCodeAction } from '../actions/action-results.ts';
import { describeRange, displayPath, oneBasedPosition, oneBasedRange, plural } from './locations.ts';
import { cutText, oneLine, renderBoundedList } from './text-budget.ts';

/** Preview lines shown per action before `… N more lines`. */
const MAX_PREVIEW_LINES = 8;
/** Longest preview line. */
const MAX_PREVIEW_LINE_CHARS = 160;

/** @returns `insert "…"`, `delete` or `replace with "…"` for one text edit */
function editVerb(edit: TextEdit): string {
  const empty = edit.range.start.line === edit.range.end.line && edit.range.start.character === edit.range.end.character;
  if (empty) return `insert ${JSON.stringify(edit.newText)}`;
  return edit.newText === '' ? 'delete' : `replace with ${JSON.stringify(edit.newText)}`;
}

/**
 * @param root workspace root
 * @param preview what applying would change
 * @returns indented preview lines: per file its diff (or its edits), then resource operations
 */
export function previewLines(root: string, preview: EditPreview): string[] {
  const lines: string[] = [];
  for (const file of preview.files) {
    lines.push(`    ${displayPath(root, file.filePath)}: ${plural(file.edits.length, 'edit')}`);
    const body = file.diff !== undefined && file.diff.trim() !== ''
      ? file.diff.split('\n').filter((l) => /^[+-]\s*\S/.test(l))
      : file.edits.map((e) => `at ${oneBasedRange(e.range)} ${editVerb(e)}`);
    for (const l of body) lines.push(`      ${oneLine(l, MAX_PREVIEW_LINE_CHARS)}`);
  }
  for (const op of preview.resourceOperations) {
    if (op.kind === 'rename') lines.push(`    rename ${displayPath(root, op.oldFilePath)} → ${displayPath(root, op.newFilePath)}`);
    else lines.push(`    ${op.kind} ${displayPath(root, op.filePath)}`);
  }
  if (lines.length <= MAX_PREVIEW_LINES + 1) return lines;
  return [...lines.slice(0, MAX_PREVIEW_LINES), `      … ${lines.length - MAX_PREVIEW_LINES} more lines`];
}

/**
 * @param root workspace root
 * @param action one listed action
 * @returns its block: `[n] title — kind, preferred; fixes: …` plus preview lines
 */
export function formatCodeAction(root: string, action: WireCodeAction): string {
  const facts: string[] = [];
  if (action.kind) facts.push(action.kind);
  if (action.isPreferred) facts.push('preferred');
  const head = `[${action.index + 1}] ${oneLine(action.title, 200)}${facts.length > 0 ? ` — ${facts.join(', ')}` : ''}`;
  // A disabled action cannot be applied: one line saying why is all it needs.
  if (action.disabled) return `${head} (disabled: ${oneLine(action.disabled, 160)})`;
  const fixes = action.diagnostics.length > 0 ? `; fixes: ${action.diagnostics.map((m) => oneLine(m, 160)).join(' | ')}` : '';
  const lines = [`${head}${fixes}`];
  if (action.preview) lines.push(...previewLines(root, action.preview));
  else lines.push(action.command ? '    (a server command computes its edits when applied; they are saved too)' : '    (its edits are computed when applied)');
  return lines.join('\n');
}

/**
 * @param root workspace root
 * @param value the listing
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderCodeActionList(root: string, value: CodeActionsListResult, maxChars: number): string {
  const where = `${displayPath(root, value.filePath)}:${oneBasedPosition(value.range.start)}`;
  // why a diagnostic here has no quick fix, when the server is known to lack some
  const note = value.note !== undefined ? [`Note: ${value.note}`] : [];
  if (value.total === 0) {
    return cutText([`No code actions at ${where} (${describeRange(value.range)}).`, ...note].join('\n'), maxChars);
  }
  const count = value.truncated ? `${value.actions.length} of ${value.total}` : `${value.total}`;
  const head = [`Code actions at ${where} (${describeRange(value.range)}): ${count}.`, ...note];
  const tail = ['To apply one, call lsp_code_action again with the same file_path and range plus its title or index.'];
  const items = value.actions.map((a) => formatCodeAction(root, a));
  return renderBoundedList({ head, items, alreadyOmitted: value.total - value.actions.length, noun: 'code actions', tail }, maxChars).text;
}
