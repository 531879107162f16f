/**
 * A {@link WorkspaceWriter} over an in-memory "disk", for pure action-logic tests: it checks
 * the basis (a file changed since the server saw it is `LSP_ACTION_CONFLICT`), applies text
 * edits all-or-nothing and records every request.
 */
import { applyTextEdits } from '../../../src/actions/edit-preview.ts';
import type { FileChange, WorkspaceWriter, WriteRequest, WriteResult } from '../../../src/edits/write-types.ts';
import { ActionError } from '../../../src/errors.ts';

/** In-memory writer; `disk` holds file texts by absolute path. */
export class MemoryWriter implements WorkspaceWriter {
  disk = new Map<string, string>();
  requests: WriteRequest[] = [];

  /**
   * @param files initial disk content
   */
  constructor(files: Record<string, string> = {}) {
    for (const [path, text] of Object.entries(files)) this.disk.set(path, text);
  }

  async apply(request: WriteRequest): Promise<WriteResult> {
    this.requests.push(request);
    if (request.policy?.mode === 'read-only') throw new ActionError('LSP_ACTION_READ_ONLY', 'read-only');
    const next = new Map<string, { before: string; after: string; editCount: number }>();
    for (const step of request.edit.steps) {
      if (step.kind !== 'edit') throw new ActionError('LSP_ACTION_UNSUPPORTED', `resource operation ${step.kind}`);
      const current = next.get(step.path)?.after ?? this.disk.get(step.path);
      if (current === undefined) throw new ActionError('LSP_ACTION_FILE_NOT_FOUND', `${step.path} does not exist`);
      const basis = request.basis?.get(step.path);
      if (!next.has(step.path) && basis !== undefined && basis !== current) {
        throw new ActionError('LSP_ACTION_CONFLICT', `${step.path} changed since the server read it`, { paths: [step.path] });
      }
      const seen = next.get(step.path);
      next.set(step.path, {
        before: seen?.before ?? current,
        after: applyTextEdits(current, step.edits),
        editCount: (seen?.editCount ?? 0) + step.edits.length,
      });
    }
    const files: FileChange[] = [];
    for (const [path, file] of next) {
      if (file.before === file.after) continue;
      this.disk.set(path, file.after);
      files.push({ path, operation: 'update', before: file.before, after: file.after, editCount: file.editCount });
    }
    return { files };
  }
}
