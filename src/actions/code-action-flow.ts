/**
 * The steps `quickfix.apply` and `codeAction.apply` share: read the selection params, find the
 * range (given, or the file's first error), ask the servers, filter by kind, pick by title or
 * index, resolve; and for commands, run them with every `workspace/applyEdit` the server sends
 * going through the same write path as any other edit — never around it.
 */
import { ActionError, isActionError } from '../errors.ts';
import type { ApplyEditHandler, CodeActionItem, NormalizedWorkspaceEdit, Range } from '../lsp/engine-types.ts';
import type { ActionInvocation, ActionServices } from './action-definition.ts';
import type { ActionParams } from './action-params.ts';
import type { CodeActionSelectParams, FileEditCount } from './action-results.ts';
import { type AppliedEdit, applyWorkspaceEdit, revertApplied, tieFor } from './apply-workspace-edit.ts';
import { type CodeActionChoice, disabledReason, filterByKind, firstErrorRange, resolveIfNeeded, selectCodeAction } from './code-action-select.ts';
import { type FileTarget, resolveFileTarget } from './file-target.ts';
import { quickFixGapNote } from './quick-fix-gaps.ts';

/**
 * @param p the params reader
 * @returns the selection params (`title` "" counts as absent)
 */
export function parseCodeActionSelect(p: ActionParams): CodeActionSelectParams {
  const params: CodeActionSelectParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath(), ...p.escalation() };
  p.refuseText();
  const range = p.range();
  const title = p.string('title');
  const index = p.index('index');
  const only = p.stringArray('only');
  if (range !== undefined) params.range = range;
  if (title !== undefined && title !== '') params.title = title;
  if (index !== undefined) params.index = index;
  if (only !== undefined) params.only = only;
  return params;
}

/** The chosen, resolved action and where it came from. */
export interface ChosenCodeAction {
  file: FileTarget;
  range: Range;
  item: CodeActionItem;
  index: number;
}

/**
 * @param services action services
 * @param invocation the run
 * @param params selection params
 * @param only kinds to keep (empty: any)
 * @param what noun for messages
 * @returns the chosen action, resolved
 * @throws ActionError `LSP_ACTION_UNKNOWN` when nothing matches or the match is disabled
 */
export async function chooseCodeAction(
  services: ActionServices,
  invocation: ActionInvocation,
  params: CodeActionSelectParams,
  only: readonly string[],
  what: string,
): Promise<ChosenCodeAction> {
  const { engine } = services;
  const { signal } = invocation;
  const file = resolveFileTarget(invocation.root, params.filePath);
  const range = params.range ?? (await firstErrorRange(engine, file.target, signal));
  const offered = await engine.codeActions(file.target, range, { signal, ...(only.length > 0 ? { only: [...only] } : {}) });
  const choice = { ...(params.title !== undefined ? { title: params.title } : {}), ...(params.index !== undefined ? { index: params.index } : {}) };
  const candidates = filterByKind(offered, only);
  if (candidates.length === 0) await refuseWithGapNote(services, file, range, offered, only, choice, what, signal);
  const { item, index } = selectCodeAction(candidates, choice, what);
  const disabled = disabledReason(item);
  if (disabled !== undefined) throw new ActionError('LSP_ACTION_UNKNOWN', `no applicable ${what}: ${disabled}`);
  return { file, range, item: await resolveIfNeeded(engine, file.target, item, signal), index };
}

/**
 * Nothing offered: when the server is one known to lack quick fixes, the refusal says so
 * (quick-fix-gaps.ts); otherwise this returns and {@link selectCodeAction} refuses as usual.
 * @throws ActionError `LSP_ACTION_UNKNOWN` with the note (also in `details.note`)
 */
async function refuseWithGapNote(
  services: ActionServices,
  file: FileTarget,
  range: Range,
  offered: readonly CodeActionItem[],
  only: readonly string[],
  choice: CodeActionChoice,
  what: string,
  signal: AbortSignal,
): Promise<void> {
  const note = await quickFixGapNote(services.engine, file.target, range, offered, only, signal);
  if (note === undefined) return;
  try {
    selectCodeAction([], choice, what);
  } catch (error) {
    if (!isActionError(error)) throw error;
    throw new ActionError(error.code, `${error.message}. ${note}`, { ...error.details, note });
  }
}

/** What running a command did. */
export interface CommandOutcome {
  /** Writes done for the server's `workspace/applyEdit` requests, in order. */
  writes: AppliedEdit[];
  /** Why an edit the server sent was refused (or the command failed), if one was. */
  failure?: ActionError;
}

/**
 * Runs the action's command; each edit the server sends back is applied through the writer
 * against the text the server had when the command was sent (answered `applied: false` with the
 * reason when refused). All or nothing: when an edit is refused or the command fails after
 * edits were written, those writes — and the `prior` writes of the same run — are undone before
 * this returns (the engine also waits for every edit's write before the command settles).
 * @param services action services
 * @param invocation the run (with its write grant)
 * @param chosen the action (must carry a command)
 * @param prior writes of the same run made before the command (the action's own edit)
 * @param expectedSha256 the editor's pin of the action's document
 * @param adapt rewrites each edit before it is applied, given the text it applies to (organize imports keeps CRLF)
 * @returns the writes (none after an undo) and the first failure
 */
export async function runCodeActionCommand(
  services: ActionServices,
  invocation: ActionInvocation,
  chosen: ChosenCodeAction,
  prior: readonly AppliedEdit[] = [],
  expectedSha256?: string,
  adapt?: (edit: NormalizedWorkspaceEdit, textOf: (path: string) => string | undefined) => NormalizedWorkspaceEdit,
): Promise<CommandOutcome> {
  const { command } = chosen.item;
  if (!command) return { writes: [...prior] };
  const outcome: CommandOutcome = { writes: [...prior] };
  const applyEdit: ApplyEditHandler = async (edit, info) => {
    if (outcome.failure) return { applied: false, failureReason: `an earlier edit of this command failed: ${outcome.failure.message}` };
    try {
      const textOf = (path: string): string | undefined => (path === info.basis?.path ? info.basis.text : services.engine.documentText(path)?.text);
      const adapted = adapt ? adapt(edit, textOf) : edit;
      outcome.writes.push(await applyWorkspaceEdit(services, invocation, adapted, tieFor(info.basis, chosen.file.path, expectedSha256)));
      return { applied: true };
    } catch (error) {
      const failure = isActionError(error)
        ? error
        : new ActionError('LSP_ACTION_WRITE_FAILED', error instanceof Error ? error.message : String(error), {}, { cause: error });
      outcome.failure ??= failure;
      return { applied: false, failureReason: failure.message };
    }
  };
  try {
    await services.engine.executeCommand(chosen.file.target, chosen.item.serverId, command, { signal: invocation.signal, applyEdit });
  } catch (error) {
    if (!isActionError(error)) throw error;
    outcome.failure ??= error;
  }
  if (outcome.failure === undefined || !outcome.writes.some((write) => write.filesChanged > 0)) return outcome;
  const undo = await revertApplied(services, invocation, outcome.writes);
  const left = undo.unrestored.length > 0 ? ` Could NOT be undone: ${undo.unrestored.map((u) => `${u.path} (${u.reason})`).join('; ')}.` : '';
  const failure = new ActionError(
    outcome.failure.code,
    `${outcome.failure.message}. The command's edits were all-or-nothing: ${undo.restored.length > 0 ? `undone in ${undo.restored.join(', ')}` : 'nothing to undo'}.${left}`,
    { ...outcome.failure.details, restored: undo.restored, unrestored: undo.unrestored },
    { cause: outcome.failure },
  );
  return { writes: undo.unrestored.length > 0 ? outcome.writes : [], failure };
}

/**
 * @param writes several writes of one run
 * @returns their sum (a file written twice appears once in `files` and `diffs`, with the first before and last after)
 */
export function mergeWrites(writes: readonly AppliedEdit[]): AppliedEdit {
  const files = new Map<string, FileEditCount>();
  const diffs = new Map<string, { filePath: string; before: string; after: string }>();
  for (const write of writes) {
    for (const file of write.files) {
      const seen = files.get(file.filePath);
      files.set(file.filePath, { filePath: file.filePath, editCount: (seen?.editCount ?? 0) + file.editCount });
    }
    for (const diff of write.diffs) {
      const seen = diffs.get(diff.filePath);
      diffs.set(diff.filePath, { filePath: diff.filePath, before: seen?.before ?? diff.before, after: diff.after });
    }
  }
  return {
    filesChanged: files.size,
    appliedEdits: writes.reduce((sum, write) => sum + write.appliedEdits, 0),
    files: [...files.values()],
    diffs: [...diffs.values()],
    changes: writes.flatMap((write) => write.changes),
  };
}
