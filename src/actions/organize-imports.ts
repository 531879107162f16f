/**
 * `organizeImports` (additive, writes): the `source.organizeImports` code action of the file's
 * servers, applied through the write path. A server that offers it as a command runs the
 * command, with the edits it sends back going through the same write path. No server offering
 * it is `LSP_ACTION_UNSUPPORTED`; `unchanged` when the imports were already organised. A command
 * failure after some edits were written is reported as `failureReason` next to what was written.
 */
import { ActionError } from '../errors.ts';
import type { Range } from '../lsp/engine-types.ts';
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { OrganizeImportsParams, OrganizeImportsResult } from './action-results.ts';
import { type AppliedEdit, applyWorkspaceEdit } from './apply-workspace-edit.ts';
import { mergeWrites, runCodeActionCommand } from './code-action-flow.ts';
import { filterByKind, resolveIfNeeded } from './code-action-select.ts';
import { resolveFileTarget, wirePath } from './file-target.ts';
import { countChangedLines } from './line-diff.ts';

/** The code action kind this action asks for. */
export const ORGANIZE_IMPORTS_KIND = 'source.organizeImports';

/**
 * @param text a document
 * @returns the range covering all of it (the start of the file when unknown)
 */
export function wholeDocumentRange(text: string | undefined): Range {
  if (text === undefined) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const lines = text.split('\n');
  return { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: (lines.at(-1) ?? '').length } };
}

/**
 * @param raw wire params
 * @returns validated `organizeImports` params
 */
export function parseOrganizeImportsParams(raw: unknown): OrganizeImportsParams {
  const p = new ActionParams(raw);
  const params: OrganizeImportsParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath(), ...p.escalation() };
  p.refuseText();
  return params;
}

/** `organizeImports`: `{ filePath, workspaceRoot, sandbox_permissions?, justification? }`. */
export const organizeImportsAction: ActionDefinition<OrganizeImportsParams, OrganizeImportsResult> = {
  id: 'organizeImports',
  writes: true,
  description: 'Organize the imports of a file (source.organizeImports) and apply the result.',
  parse: parseOrganizeImportsParams,
  async run(params, services, invocation) {
    const { engine } = services;
    const { signal, root } = invocation;
    const file = resolveFileTarget(root, params.filePath);
    const range = wholeDocumentRange(engine.documentText(file.path)?.text);
    const offered = await engine.codeActions(file.target, range, { signal, only: [ORGANIZE_IMPORTS_KIND] });
    const candidates = filterByKind(offered, [ORGANIZE_IMPORTS_KIND]).filter((item) => item.disabled === undefined);
    const first = candidates.find((item) => item.isPreferred === true) ?? candidates[0];
    if (!first) {
      throw new ActionError('LSP_ACTION_UNSUPPORTED', `no language server for ${file.filePath} offers ${ORGANIZE_IMPORTS_KIND}`);
    }
    const item = await resolveIfNeeded(engine, file.target, first, signal);
    const writes: AppliedEdit[] = [];
    if (item.edit) writes.push(await applyWorkspaceEdit(services, invocation, item.edit));
    let failure;
    if (item.command) {
      const outcome = await runCodeActionCommand(services, invocation, { file, range, item, index: 0 });
      writes.push(...outcome.writes);
      failure = outcome.failure;
    }
    const merged = mergeWrites(writes);
    if (failure && merged.filesChanged === 0) throw failure;
    if (merged.filesChanged === 0) return { kind: 'unchanged', filePath: file.filePath };
    const own = merged.diffs.find((diff) => diff.filePath === wirePath(root, file.path));
    const result: OrganizeImportsResult = {
      kind: 'importsOrganized',
      filePath: file.filePath,
      title: item.title,
      serverId: item.serverId,
      linesChanged: own ? countChangedLines(own.before, own.after) : 0,
      filesChanged: merged.filesChanged,
      appliedEdits: merged.appliedEdits,
      diffs: merged.diffs,
    };
    if (failure) result.failureReason = failure.message;
    return result;
  },
};
