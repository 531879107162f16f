/**
 * `rename` (additive, writes): `textDocument/prepareRename` first (nothing renameable there →
 * `LSP_ACTION_NO_SYMBOL`), then a workspace-wide `textDocument/rename`, applied all-or-nothing
 * through the write path against the texts the server computed the edit from.
 */
import { ActionError, isActionError } from '../errors.ts';
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams, invalid } from './action-params.ts';
import type { RenameParams, RenameResult } from './action-results.ts';
import { applyWorkspaceEdit, tieFor } from './apply-workspace-edit.ts';
import { textInRange } from './edit-preview.ts';
import { resolveFileTarget } from './file-target.ts';

/**
 * @param raw wire params
 * @returns validated `rename` params
 */
export function parseRenameParams(raw: unknown): RenameParams {
  const p = new ActionParams(raw);
  const params: RenameParams = {
    workspaceRoot: p.workspaceRoot(),
    filePath: p.filePath(),
    position: p.position(),
    newName: p.requiredString('newName'),
    ...p.escalation(),
  };
  if (params.newName.trim() === '') throw invalid('params.newName must not be blank');
  p.refuseText();
  return params;
}

/** `rename`: `{ filePath, workspaceRoot, position, newName, sandbox_permissions?, justification? }`. */
export const renameSymbolAction: ActionDefinition<RenameParams, RenameResult> = {
  id: 'rename',
  writes: true,
  description: 'Rename the symbol at a zero-based position across the workspace (prepareRename first) and apply the edits.',
  parse: parseRenameParams,
  async run(params, services, invocation) {
    const { engine } = services;
    const { signal } = invocation;
    const { target, path, filePath } = resolveFileTarget(invocation.root, params.filePath);
    const { line, character } = params.position;
    let prepared;
    try {
      prepared = await engine.prepareRename(target, params.position, { signal });
    } catch (error) {
      // Servers refuse prepareRename at a non-renameable spot with an error of their own
      // (typescript-language-server: -32603 "You cannot rename this element.").
      if (isActionError(error) && error.code === 'LSP_ACTION_PEER_ERROR') {
        throw new ActionError('LSP_ACTION_NO_SYMBOL', `nothing to rename at ${filePath} line ${line}, character ${character} (zero-based): ${error.message}`, error.details, { cause: error });
      }
      throw error;
    }
    if (prepared === null) {
      throw new ActionError(
        'LSP_ACTION_NO_SYMBOL',
        `nothing to rename at ${filePath} line ${line}, character ${character} (zero-based): the server found no renameable symbol there`,
      );
    }
    let oldName = prepared.placeholder;
    const text = engine.documentText(path)?.text;
    if (oldName === undefined && prepared.range && text !== undefined) oldName = textInRange(text, prepared.range);
    const { serverId, edit, basis } = await engine.rename(target, params.position, params.newName, { signal });
    const applied = await applyWorkspaceEdit(services, invocation, edit, tieFor(basis, path, params.expectedSha256));
    if (applied.filesChanged === 0) return { kind: 'unchanged', filePath };
    const result: RenameResult = {
      kind: 'renamed',
      filePath,
      position: params.position,
      newName: params.newName,
      serverId,
      filesChanged: applied.filesChanged,
      appliedEdits: applied.appliedEdits,
      files: applied.files,
      diffs: applied.diffs,
    };
    if (oldName !== undefined) result.oldName = oldName;
    return result;
  },
};
