/**
 * `quickfix.apply` (v1, writes): picks one quick fix for `range` (or the file's first error) by
 * exact `title` or by `index` (default 0) and applies its edit through the write path.
 *
 * - `only` defaults to `['quickfix']` (hierarchical kinds; kindless actions are dropped; `[]` = any kind).
 * - An action that needs `codeAction/resolve` is resolved first.
 * - Commands are never executed here (v1): an action with edit + command applies its edit only;
 *   a command-only action is refused with `LSP_ACTION_UNKNOWN` (use `codeAction.apply`).
 * - Nothing matched (including "the server offered nothing") is `LSP_ACTION_UNKNOWN`;
 *   `unchanged` means the chosen fix changed no file.
 */
import { ActionError } from '../errors.ts';
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { QuickfixApplyParams, QuickfixApplyResult } from './action-results.ts';
import { applyWorkspaceEdit, tieFor } from './apply-workspace-edit.ts';
import { chooseCodeAction, parseCodeActionSelect } from './code-action-flow.ts';

/** Kinds `quickfix.apply` considers when the request names none. */
export const QUICKFIX_KINDS: readonly string[] = ['quickfix'];

/**
 * @param raw wire params
 * @returns validated `quickfix.apply` params
 */
export function parseQuickfixApplyParams(raw: unknown): QuickfixApplyParams {
  return parseCodeActionSelect(new ActionParams(raw));
}

/** `quickfix.apply`: `{ filePath, workspaceRoot, range?, title?, index?, only?, sandbox_permissions?, justification? }`. */
export const quickfixApplyAction: ActionDefinition<QuickfixApplyParams, QuickfixApplyResult> = {
  id: 'quickfix.apply',
  writes: true,
  description: 'Select one server-verified code action (quickfix) and apply its edits through the official write path.',
  parse: parseQuickfixApplyParams,
  async run(params, services, invocation) {
    const chosen = await chooseCodeAction(services, invocation, params, params.only ?? QUICKFIX_KINDS, 'quick fix');
    const { item, file } = chosen;
    if (!item.edit) {
      throw new ActionError(
        'LSP_ACTION_UNKNOWN',
        `quick fix [${chosen.index}] "${item.title}" is command-only; quickfix.apply never runs commands (codeAction.apply does)`,
      );
    }
    const applied = await applyWorkspaceEdit(services, invocation, item.edit, tieFor(item.basis, chosen.file.path, params.expectedSha256));
    if (applied.filesChanged === 0) return { kind: 'unchanged', filePath: file.filePath };
    return {
      kind: 'quickfixApplied',
      filePath: file.filePath,
      title: item.title,
      filesChanged: applied.filesChanged,
      appliedEdits: applied.appliedEdits,
      diffs: applied.diffs,
      serverId: item.serverId,
      files: applied.files,
    };
  },
};
