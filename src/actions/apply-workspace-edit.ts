/**
 * The one way actions write: a normalised workspace edit goes through `services.writer` with the
 * invocation's write grant, against the text the server computed it from — the request's
 * document exactly as it was when the request was sent (`EditBasis` from the engine), and every
 * other document open on that server as it was then too (`EditBasis.others`; a file not open
 * there is checked against the disk as preflight reads it) — so a file changed since the server
 * saw it is a conflict, never clobbered. Versioned `documentChanges` must name the version we had synced.
 * The editor's pin (`expectedSha256`) must match the request document's basis. After the write
 * the engine is told which files changed, so the next diagnostics see the new text.
 */
import { TextLines } from '../documents/position-encoding.ts';
import { abortError, ActionError } from '../errors.ts';
import type { FileChange } from '../edits/write-types.ts';
import type { EditBasis, NormalizedWorkspaceEdit } from '../lsp/engine-types.ts';
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
 * @param documentText the text the server computed against, by path (a send-time copy, else the engine's open copy)
 * @returns basis texts: every path the edit touches that the lookup knows
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

/** What an edit is tied to. */
export interface EditTie {
  /** The text the server computed the edit against (its request's document when it was sent). */
  basis?: EditBasis;
  /** The editor's pin: the request's document and the SHA-256 of the text it saw. */
  pin?: { path: string; sha256: string };
}

/**
 * @param edit the normalised edit
 * @param basis the request document's text and version when the request was sent
 * @param documentText the engine's text lookup
 * @throws ActionError `LSP_ACTION_CONFLICT` (reason `version-mismatch`) when a versioned step
 *   names a version other than the one we had synced
 */
export function checkStepVersions(
  edit: NormalizedWorkspaceEdit,
  basis: EditBasis | undefined,
  documentText: (path: string) => { version: number } | undefined,
): void {
  for (const step of edit.steps) {
    if (step.kind !== 'edit' || typeof step.version !== 'number') continue;
    const ours = step.path === basis?.path ? basis.version : (basis?.others?.get(step.path)?.version ?? documentText(step.path)?.version);
    if (ours === step.version) continue;
    throw new ActionError(
      'LSP_ACTION_CONFLICT',
      `the server computed its edit of ${step.path} against version ${step.version}, but ` +
        `${ours === undefined ? 'that document is not open' : `our copy is at version ${ours}`}; nothing was written. Re-run the action.`,
      { paths: [step.path], reason: 'version-mismatch' },
    );
  }
}

/**
 * @param services the action services
 * @param invocation the run (must carry a write grant)
 * @param edit the edit to apply
 * @param tie the text the edit was computed against and the editor's pin
 * @returns what was written (empty when nothing changed)
 * @throws ActionError from the writer (`LSP_ACTION_CONFLICT`, `LSP_ACTION_READ_ONLY`, …)
 */
export async function applyWorkspaceEdit(
  services: ActionServices,
  invocation: ActionInvocation,
  edit: NormalizedWorkspaceEdit,
  tie: EditTie = {},
): Promise<AppliedEdit> {
  const { root, signal, write } = invocation;
  if (!write) {
    throw new ActionError('LSP_ACTION_READ_ONLY', 'this run carries no write permission; nothing was written');
  }
  if (signal.aborted) throw abortError(signal);
  const documentText = (path: string): { text: string; version: number } | undefined => services.engine.documentText(path);
  checkStepVersions(edit, tie.basis, documentText);
  // What the server had when the request was sent wins over our copy now (a later sync moved it).
  const basis = basisFor(edit, (path) => tie.basis?.others?.get(path) ?? documentText(path));
  if (tie.basis) basis.set(tie.basis.path, tie.basis.text);
  const result = await services.writer.apply({
    root,
    edit,
    basis,
    ...(tie.pin ? { pins: new Map([[tie.pin.path, tie.pin.sha256]]) } : {}),
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

/**
 * @param basis the text the edit was computed against, when the engine said
 * @param path the action's document
 * @param expectedSha256 the editor's pin, when sent
 * @returns the tie to pass to {@link applyWorkspaceEdit}
 */
export function tieFor(basis: EditBasis | undefined, path: string, expectedSha256: string | undefined): EditTie {
  return { ...(basis ? { basis } : {}), ...(expectedSha256 === undefined ? {} : { pin: { path, sha256: expectedSha256 } }) };
}

/**
 * Undoes earlier writes of the same run (a command whose later edit failed): each file goes back
 * to its text before the run, through the same guarded write path, and only if it still holds
 * exactly what the run wrote. Runs without the run's signal: a cancel must not stop an undo.
 * @param services the action services
 * @param invocation the run
 * @param writes the run's writes, in order
 * @returns the paths put back and the ones that could not be (with the reason)
 */
export async function revertApplied(
  services: ActionServices,
  invocation: ActionInvocation,
  writes: readonly AppliedEdit[],
): Promise<{ restored: string[]; unrestored: Array<{ path: string; reason: string }> }> {
  const first = new Map<string, FileChange>();
  const last = new Map<string, FileChange>();
  for (const change of writes.flatMap((write) => write.changes)) {
    if (!first.has(change.path)) first.set(change.path, change);
    last.set(change.path, change);
  }
  const restored: string[] = [];
  const unrestored: Array<{ path: string; reason: string }> = [];
  const steps: NormalizedWorkspaceEdit['steps'] = [];
  const basis = new Map<string, string>();
  for (const [path, change] of first) {
    const now = last.get(path)?.after ?? change.after;
    if (change.before === null) {
      unrestored.push({ path, reason: 'the run created it, and the harness file system cannot delete files; it is still there' });
      continue;
    }
    const end = new TextLines(now).positionAt(now.length);
    steps.push({ kind: 'edit', path, edits: [{ range: { start: { line: 0, character: 0 }, end }, newText: change.before }] });
    basis.set(path, now);
  }
  if (steps.length === 0) return { restored, unrestored };
  const undo = { ...invocation, signal: new AbortController().signal };
  try {
    const result = await services.writer.apply({
      root: undo.root,
      edit: { steps },
      basis,
      ...(undo.write?.actor ? { actor: undo.write.actor } : {}),
      ...(undo.write?.policy ? { policy: undo.write.policy } : {}),
    });
    restored.push(...result.files.map((file) => file.path));
    await notifyEngine(services, { steps }, result.files, undo.signal);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    for (const step of steps) if (step.kind === 'edit') unrestored.push({ path: step.path, reason });
  }
  return { restored, unrestored };
}
