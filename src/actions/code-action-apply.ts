/**
 * `codeAction.apply` (additive, writes): like `quickfix.apply` but for any kind (quick fixes,
 * refactors, source actions), and it runs commands: the action's edit is applied first, then its
 * command runs through `workspace/executeCommand`, and every edit the server sends back with
 * `workspace/applyEdit` goes through the same write path. An edit the write path refuses is
 * answered `applied: false` with the reason, and the result says `applied: false` with
 * `failureReason` (when nothing at all was written, the refusal's own error is thrown instead).
 */
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { CodeActionApplyParams, CodeActionApplyResult } from './action-results.ts';
import { type AppliedEdit, applyWorkspaceEdit, tieFor } from './apply-workspace-edit.ts';
import { chooseCodeAction, mergeWrites, parseCodeActionSelect, runCodeActionCommand } from './code-action-flow.ts';

/**
 * @param raw wire params
 * @returns validated `codeAction.apply` params
 */
export function parseCodeActionApplyParams(raw: unknown): CodeActionApplyParams {
  const p = new ActionParams(raw);
  const params: CodeActionApplyParams = parseCodeActionSelect(p);
  const runCommand = p.boolean('runCommand');
  if (runCommand !== undefined) params.runCommand = runCommand;
  return params;
}

/** `codeAction.apply`: `{ filePath, workspaceRoot, range?, title?, index?, only?, runCommand?, sandbox_permissions?, justification? }`. */
export const codeActionApplyAction: ActionDefinition<CodeActionApplyParams, CodeActionApplyResult> = {
  id: 'codeAction.apply',
  writes: true,
  description: 'Apply one code action of any kind by title or index; its command runs with the edits it sends through the write path.',
  parse: parseCodeActionApplyParams,
  async run(params, services, invocation) {
    const chosen = await chooseCodeAction(services, invocation, params, params.only ?? [], 'code action');
    const { item, file } = chosen;
    let writes: AppliedEdit[] = [];
    if (item.edit) writes.push(await applyWorkspaceEdit(services, invocation, item.edit, tieFor(item.basis, file.path, params.expectedSha256)));
    const runCommand = item.command !== undefined && params.runCommand !== false;
    let failure;
    if (runCommand) {
      const outcome = await runCodeActionCommand(services, invocation, chosen, writes, params.expectedSha256);
      writes = outcome.writes;
      failure = outcome.failure;
    }
    const merged = mergeWrites(writes);
    if (failure && merged.filesChanged === 0) throw failure;
    if (!runCommand && merged.filesChanged === 0) {
      return { kind: 'unchanged', filePath: file.filePath, ...(item.edit ? {} : { reason: `"${item.title}" has no edit and its command was not run` }) };
    }
    const result: CodeActionApplyResult = {
      kind: 'codeActionApplied',
      filePath: file.filePath,
      title: item.title,
      serverId: item.serverId,
      applied: failure === undefined,
      commandExecuted: runCommand,
      filesChanged: merged.filesChanged,
      appliedEdits: merged.appliedEdits,
      diffs: merged.diffs,
      files: merged.files,
    };
    if (item.kind !== undefined) result.actionKind = item.kind;
    if (failure) result.failureReason = failure.message;
    return result;
  },
};
