/**
 * The one way actions write: a normalised workspace edit goes through `services.writer` with the
 * invocation's write grant, against the text the server computed it from (the engine's open
 * documents), so a file changed since the server saw it is a conflict, never clobbered. After
 * the write the engine is told which files changed, so the next diagnostics see the new text.
 */
import { abortError, ActionError } from '../errors.ts';
import type { FileChange } from '../edits/write-types.ts';
import type { NormalizedWorkspaceEdit } from '../lsp/engine-types.ts';
import type { ActionInvocation, ActionServices } from './action-definition.ts';
import type { FileDiff, FileEditCount, WriteSummary } from './action-results.ts';
import { wirePath } from './file-target.ts';

/** A finished write, in wire terms and as the writer reported it. */
export interface AppliedEdit extends WriteSummary {
  files: FileEditCount[];
  /** The writer's per-file report (absolute paths). */
  changes: FileChange[];
}

/**
 * @param edit the normalised edit
 * @param documentText the engine's text lookup
 * @returns basis texts: every path the edit touches that the engine has open
 */
export function basisFor(
  edit: NormalizedWorkspaceEdit,
  documentText: (path: string) => { text: string } | undefined,
): Map<string, string> {
  const basis = new Map<string, string>();
  for (const step of edit.steps) {
    const paths = step.kind === 'rename' ? [step.oldPath] : [step.path];
    for (const path of paths) {
      if (basis.has(path)) continue;
      const doc = documentText(path);
      if (doc !== undefined) basis.set(path, doc.text);
    }
  }
  return basis;
}

/**
 * @param services the action services
 * @param invocation the run (must carry a write grant)
 * @param edit the edit to apply
 * @returns what was written (empty when nothing changed)
 * @throws ActionError from the writer (`LSP_ACTION_CONFLICT`, `LSP_ACTION_READ_ONLY`, …)
 */
export async function applyWorkspaceEdit(
  services: ActionServices,
  invocation: ActionInvocation,
  edit: NormalizedWorkspaceEdit,
): Promise<AppliedEdit> {
  const { root, signal, write } = invocation;
  if (!write) {
    throw new ActionError('LSP_ACTION_READ_ONLY', 'this run carries no write permission; nothing was written');
  }
  if (signal.aborted) throw abortError(signal);
  const result = await services.writer.apply({
    root,
    edit,
    basis: basisFor(edit, (path) => services.engine.documentText(path)),
    signal,
    ...(write.actor ? { actor: write.actor } : {}),
    ...(write.policy ? { policy: write.policy } : {}),
  });
  const changed = result.files.filter((file) => file.before !== file.after);
  await notifyEngine(services, edit, changed, signal);
  const diffs: FileDiff[] = changed.map((file) => ({ filePath: wirePath(root, file.path), before: file.before ?? '', after: file.after }));
  const files = changed.map((file) => ({ filePath: wirePath(root, file.path), editCount: file.editCount }));
  return {
    filesChanged: changed.length,
    appliedEdits: changed.reduce((sum, file) => sum + file.editCount, 0),
    diffs,
    files,
    changes: changed,
  };
}

/**
 * Tells the engine about our own writes. A failure here does not undo a finished write, so it
 * is not reported as the action's failure (the engine re-reads on the next request anyway).
 */
async function notifyEngine(
  services: ActionServices,
  edit: NormalizedWorkspaceEdit,
  changed: FileChange[],
  signal: AbortSignal,
): Promise<void> {
  const changes = new Map<string, 'created' | 'changed' | 'deleted'>();
  for (const file of changed) changes.set(file.path, file.operation === 'create' ? 'created' : 'changed');
  for (const step of edit.steps) {
    if (step.kind === 'rename') {
      changes.set(step.oldPath, 'deleted');
      changes.set(step.newPath, 'created');
    } else if (step.kind === 'delete') {
      changes.set(step.path, 'deleted');
    }
  }
  if (changes.size === 0) return;
  try {
    await services.engine.filesChanged([...changes].map(([path, kind]) => ({ path, kind })), { signal });
  } catch {
    // The write is done; the engine re-syncs documents from disk before its next request.
  }
}
