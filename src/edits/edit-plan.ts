/**
 * Turns a {@link NormalizedWorkspaceEdit} into a per-file plan, without any I/O.
 *
 * The steps of a workspace edit are ordered: a `create` may precede edits of the new file, and
 * several `FileTextEdits` for one file compose in order (each step's positions refer to the text
 * the previous steps produced). The plan keeps that order per file, so each file is read once and
 * written once, whatever the number of steps touching it.
 *
 * `rename` and `delete` are refused here, before anything is read or written: the harness file
 * system seam (`ctx.fs`) has no rename or delete primitive, and doing either around it (node:fs, a
 * subprocess) would bypass the sandbox fence and the write-intent policy.
 */
import { isAbsolute } from 'node:path';
import { ActionError } from '../errors.ts';
import type { NormalizedWorkspaceEdit, TextEdit, WorkspaceEditStep } from '../lsp/engine-types.ts';

/** One operation on one file, in workspace-edit order. */
export type FileOperation =
  | { kind: 'create'; overwrite: boolean; ignoreIfExists: boolean }
  | { kind: 'edit'; edits: readonly TextEdit[] };

/** Every operation of a workspace edit that touches one file. */
export interface FilePlan {
  /** The grouping key (the fs target key once paths are resolved). */
  key: string;
  /** Every spelling of the file's path that the edit used, in first-seen order. */
  paths: string[];
  operations: FileOperation[];
}

/**
 * Validates the steps and lists the files they touch. Refuses the whole edit when any step is an
 * operation the fs seam cannot perform.
 * @param edit the normalised workspace edit
 * @returns distinct absolute paths, in first-seen order
 * @throws ActionError `LSP_ACTION_UNSUPPORTED` naming a `rename`/`delete` step (or an unknown
 *   kind); `LSP_ACTION_MALFORMED_RESPONSE` for a step without an absolute path
 */
export function collectTargetPaths(edit: NormalizedWorkspaceEdit): string[] {
  const paths: string[] = [];
  const seen = new Set<string>();
  edit.steps.forEach((step, index) => {
    const path = stepPath(step, index);
    if (!seen.has(path)) {
      seen.add(path);
      paths.push(path);
    }
  });
  return paths;
}

/**
 * Groups the steps per file, keeping the edit's order within each file.
 * @param edit the normalised workspace edit (already validated by {@link collectTargetPaths})
 * @param keyOf maps a step's path to its file identity (aliases of one file share a key)
 * @returns one plan per file, in first-seen order
 */
export function groupStepsByFile(edit: NormalizedWorkspaceEdit, keyOf: (path: string) => string): FilePlan[] {
  const plans = new Map<string, FilePlan>();
  edit.steps.forEach((step, index) => {
    const path = stepPath(step, index);
    const key = keyOf(path);
    let plan = plans.get(key);
    if (plan === undefined) {
      plan = { key, paths: [], operations: [] };
      plans.set(key, plan);
    }
    if (!plan.paths.includes(path)) plan.paths.push(path);
    plan.operations.push(toOperation(step));
  });
  return [...plans.values()];
}

function stepPath(step: WorkspaceEditStep, index: number): string {
  switch (step.kind) {
    case 'edit':
    case 'create':
      return checkedPath(step.path, index);
    case 'rename':
      throw new ActionError(
        'LSP_ACTION_UNSUPPORTED',
        `the edit renames ${step.oldPath} to ${step.newPath} (step ${index + 1}); the harness file system ` +
          'cannot rename files, so the whole edit was refused and nothing was written',
        { paths: [step.oldPath, step.newPath], operation: 'rename', step: index },
      );
    case 'delete':
      throw new ActionError(
        'LSP_ACTION_UNSUPPORTED',
        `the edit deletes ${step.path} (step ${index + 1}); the harness file system cannot delete files, ` +
          'so the whole edit was refused and nothing was written',
        { paths: [step.path], operation: 'delete', step: index },
      );
    default: {
      const kind = (step as { kind?: unknown }).kind;
      throw new ActionError(
        'LSP_ACTION_UNSUPPORTED',
        `the edit has a step of unknown kind ${JSON.stringify(kind)} (step ${index + 1}); nothing was written`,
        { operation: String(kind), step: index },
      );
    }
  }
}

function checkedPath(path: unknown, index: number): string {
  if (typeof path !== 'string' || !isAbsolute(path)) {
    throw new ActionError(
      'LSP_ACTION_MALFORMED_RESPONSE',
      `step ${index + 1} of the edit has no absolute file path (${JSON.stringify(path)}); nothing was written`,
      { step: index },
    );
  }
  return path;
}

function toOperation(step: WorkspaceEditStep): FileOperation {
  if (step.kind === 'create') {
    return { kind: 'create', overwrite: step.overwrite === true, ignoreIfExists: step.ignoreIfExists === true };
  }
  if (step.kind === 'edit') return { kind: 'edit', edits: step.edits };
  // collectTargetPaths refused every other kind before grouping.
  throw new ActionError('LSP_ACTION_UNSUPPORTED', `unsupported step kind ${step.kind}`, { operation: step.kind });
}
