/**
 * `WorkspaceEdit` → {@link NormalizedWorkspaceEdit}: `documentChanges` preferred over `changes`
 * (when a server sends both, `documentChanges` is authoritative, as LSP says), URIs turned into
 * paths, positions into UTF-16, order kept; plus `TextEdit[]` (formatting).
 */
import type { NormalizedWorkspaceEdit, ResourceOperation, TextEdit, WorkspaceEditStep } from './engine-types.ts';
import { isObject, malformed, readArray, readRange, requirePath, type NormalizeContext } from './normalize-common.ts';

/**
 * @param ctx normaliser context
 * @param raw a TextEdit[] (also AnnotatedTextEdit / SnippetTextEdit; snippets are taken literally)
 * @param path the document the edits apply to
 * @param what where it was
 * @returns UTF-16 text edits
 */
export function normalizeTextEdits(ctx: NormalizeContext, raw: unknown, path: string, what = 'edits'): TextEdit[] {
  return readArray(ctx, raw, what).map((edit, i) => {
    if (!isObject(edit)) throw malformed(ctx, `${what}[${i}] is not a TextEdit`);
    const snippet = isObject(edit.snippet) && typeof edit.snippet.value === 'string' ? edit.snippet.value : undefined;
    const newText = typeof edit.newText === 'string' ? edit.newText : snippet;
    if (newText === undefined) throw malformed(ctx, `${what}[${i}].newText is not a string`);
    return { range: readRange(ctx, edit.range, path, `${what}[${i}].range`), newText };
  });
}

function options(raw: unknown): Record<string, unknown> {
  return isObject(raw) ? raw : {};
}

function flag(target: Record<string, unknown>, key: string, value: unknown): void {
  if (typeof value === 'boolean') target[key] = value;
}

function resourceOperation(ctx: NormalizeContext, change: Record<string, unknown>, what: string): ResourceOperation {
  const opts = options(change.options);
  if (change.kind === 'create') {
    const op: ResourceOperation = { kind: 'create', path: requirePath(ctx, change.uri, `${what}.uri`) };
    flag(op, 'overwrite', opts.overwrite);
    flag(op, 'ignoreIfExists', opts.ignoreIfExists);
    return op;
  }
  if (change.kind === 'rename') {
    const op: ResourceOperation = {
      kind: 'rename',
      oldPath: requirePath(ctx, change.oldUri, `${what}.oldUri`),
      newPath: requirePath(ctx, change.newUri, `${what}.newUri`),
    };
    flag(op, 'overwrite', opts.overwrite);
    flag(op, 'ignoreIfExists', opts.ignoreIfExists);
    return op;
  }
  if (change.kind === 'delete') {
    const op: ResourceOperation = { kind: 'delete', path: requirePath(ctx, change.uri, `${what}.uri`) };
    flag(op, 'recursive', opts.recursive);
    flag(op, 'ignoreIfNotExists', opts.ignoreIfNotExists);
    return op;
  }
  throw malformed(ctx, `${what}.kind ${JSON.stringify(change.kind)} is not create/rename/delete`);
}

/**
 * @param ctx normaliser context
 * @param raw a WorkspaceEdit (or null/undefined → no steps)
 * @param what where it was
 * @returns the normalised edit
 */
export function normalizeWorkspaceEdit(ctx: NormalizeContext, raw: unknown, what = 'edit'): NormalizedWorkspaceEdit {
  if (raw === null || raw === undefined) return { steps: [] };
  if (!isObject(raw)) throw malformed(ctx, `${what} is not a WorkspaceEdit`);
  const steps: WorkspaceEditStep[] = [];
  if (raw.documentChanges !== undefined && raw.documentChanges !== null) {
    readArray(ctx, raw.documentChanges, `${what}.documentChanges`).forEach((change, i) => {
      const where = `${what}.documentChanges[${i}]`;
      if (!isObject(change)) throw malformed(ctx, `${where} is not a document change`);
      if (typeof change.kind === 'string') {
        steps.push(resourceOperation(ctx, change, where));
        return;
      }
      if (!isObject(change.textDocument)) throw malformed(ctx, `${where}.textDocument is missing`);
      const path = requirePath(ctx, change.textDocument.uri, `${where}.textDocument.uri`);
      const version = change.textDocument.version;
      steps.push({
        kind: 'edit',
        path,
        version: typeof version === 'number' ? version : null,
        edits: normalizeTextEdits(ctx, change.edits, path, `${where}.edits`),
      });
    });
    return { steps };
  }
  if (raw.changes !== undefined && raw.changes !== null) {
    if (!isObject(raw.changes)) throw malformed(ctx, `${what}.changes is not a map`);
    for (const [uri, edits] of Object.entries(raw.changes)) {
      const path = requirePath(ctx, uri, `${what}.changes key`);
      steps.push({ kind: 'edit', path, edits: normalizeTextEdits(ctx, edits, path, `${what}.changes[${uri}]`) });
    }
  }
  return { steps };
}
