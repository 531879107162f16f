/**
 * What a workspace edit would change, without writing: per file its edits (wire positions) and,
 * when the text the server computed against is known, a unified-diff-like hunk list.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ActionError } from '../errors.ts';
import type { NormalizedWorkspaceEdit, TextEdit } from '../lsp/engine-types.ts';
import type { EditPreview, PreviewFile, PreviewResourceOperation } from './action-results.ts';
import { wirePath } from './file-target.ts';
import { unifiedDiff } from './line-diff.ts';

/** Looks up the text a file had when the server computed the edit (`undefined` when unknown). */
export type TextLookup = (path: string) => string | undefined;

/**
 * @param root absolute workspace root (paths are shown relative to it)
 * @param edit the normalised edit
 * @param textOf known texts (the engine's open documents)
 * @returns the preview; files in order of first appearance
 */
export function buildEditPreview(root: string, edit: NormalizedWorkspaceEdit, textOf: TextLookup): EditPreview {
  const files = new Map<string, { edits: TextEdit[]; before: string | undefined; after: string | undefined }>();
  const resourceOperations: PreviewResourceOperation[] = [];
  let editCount = 0;
  for (const step of edit.steps) {
    if (step.kind === 'edit') {
      let file = files.get(step.path);
      if (!file) {
        const before = textOf(step.path);
        file = { edits: [], before, after: before };
        files.set(step.path, file);
      }
      file.edits.push(...step.edits);
      editCount += step.edits.length;
      if (file.after !== undefined) file.after = tryApply(file.after, step.edits);
    } else if (step.kind === 'rename') {
      resourceOperations.push({ kind: 'rename', oldFilePath: wirePath(root, step.oldPath), newFilePath: wirePath(root, step.newPath) });
    } else {
      resourceOperations.push({ kind: step.kind, filePath: wirePath(root, step.path) });
    }
  }
  const previews: PreviewFile[] = [];
  for (const [path, file] of files) {
    const preview: PreviewFile = { filePath: wirePath(root, path), edits: file.edits };
    if (file.before !== undefined && file.after !== undefined) preview.diff = unifiedDiff(file.before, file.after);
    previews.push(preview);
  }
  return { files: previews, resourceOperations, editCount };
}

/**
 * Applies text edits (UTF-16 positions, LSP clamping) to a text.
 * @param text the document text
 * @param edits non-overlapping edits, relative to `text`
 * @returns the new text
 * @throws ActionError `LSP_ACTION_CONFLICT` when edits overlap
 */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  if (edits.length === 0) return text;
  const doc = TextDocument.create('file:///preview', 'plaintext', 0, text);
  try {
    return TextDocument.applyEdits(doc, [...edits]);
  } catch (error) {
    throw new ActionError('LSP_ACTION_CONFLICT', `the server's edits overlap: ${String(error)}`, {}, { cause: error });
  }
}

/**
 * @param text a document
 * @param range a UTF-16 range (clamped as LSP says)
 * @returns the text the range covers
 */
export function textInRange(text: string, range: TextEdit['range']): string {
  const doc = TextDocument.create('file:///range', 'plaintext', 0, text);
  return text.slice(doc.offsetAt(range.start), doc.offsetAt(range.end));
}

/**
 * @param edit a normalised edit
 * @returns the number of text edits in it
 */
export function countTextEdits(edit: NormalizedWorkspaceEdit): number {
  let count = 0;
  for (const step of edit.steps) if (step.kind === 'edit') count += step.edits.length;
  return count;
}

/**
 * @param text before
 * @param edits edits to it
 * @returns the text after, or undefined when the edits overlap
 */
function tryApply(text: string, edits: readonly TextEdit[]): string | undefined {
  try {
    return applyTextEdits(text, edits);
  } catch {
    return undefined;
  }
}
