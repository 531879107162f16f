/**
 * `format` (v1, writes): formats the whole file, or `range`, with the first server that
 * advertises formatting, and applies the edits through the write path against the text the
 * server formatted (a file changed since is a conflict). `linesChanged` is the number of lines
 * that differ between before and after (see `countChangedLines`); `unchanged` when the server
 * returns no edits or edits that leave the text identical.
 */
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { FormatParams, FormatResult } from './action-results.ts';
import { applyWorkspaceEdit, tieFor } from './apply-workspace-edit.ts';
import { applyTextEdits } from './edit-preview.ts';
import { resolveFileTarget } from './file-target.ts';
import { countChangedLines } from './line-diff.ts';

/**
 * @param raw wire params
 * @returns validated `format` params
 */
export function parseFormatParams(raw: unknown): FormatParams {
  const p = new ActionParams(raw);
  const params: FormatParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath(), ...p.escalation() };
  p.refuseText();
  const range = p.range();
  if (range !== undefined) params.range = range;
  return params;
}

/** `format`: `{ filePath, workspaceRoot, range?, sandbox_permissions?, justification? }`. */
export const formatDocumentAction: ActionDefinition<FormatParams, FormatResult> = {
  id: 'format',
  writes: true,
  description: 'Format a file (or a zero-based selection) through its language server and apply the result.',
  parse: parseFormatParams,
  async run(params, services, invocation) {
    const { engine } = services;
    const { target, path, filePath } = resolveFileTarget(invocation.root, params.filePath);
    const { edits, basis } = await engine.format(target, params.range, { signal: invocation.signal });
    if (edits.length === 0) return { kind: 'unchanged', filePath };
    const text = basis?.text ?? engine.documentText(path)?.text;
    if (text !== undefined && applyTextEdits(text, edits) === text && params.expectedSha256 === undefined) return { kind: 'unchanged', filePath };
    const applied = await applyWorkspaceEdit(services, invocation, { steps: [{ kind: 'edit', path, edits }] }, tieFor(basis, path, params.expectedSha256));
    const change = applied.changes.find((file) => file.path === path) ?? applied.changes[0];
    if (!change) return { kind: 'unchanged', filePath };
    const before = change.before ?? '';
    return {
      kind: 'formatted',
      filePath,
      appliedEdits: change.editCount,
      linesChanged: countChangedLines(before, change.after),
      before,
      after: change.after,
    };
  },
};
