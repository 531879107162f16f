/**
 * Some servers write LF into every edit whatever the file uses (typescript-language-server's
 * organize imports did, turning CRLF files into mixed line endings). For a file whose text is
 * CRLF, every bare LF in an edit's new text becomes CRLF, so the written file stays byte-exact
 * in its line-ending style. Files that use LF (or mix) are left as the server sent them.
 */
import type { NormalizedWorkspaceEdit } from '../lsp/engine-types.ts';

/**
 * @param text a document
 * @returns whether its line breaks are CRLF (at least one, and no bare LF)
 */
export function usesCrlf(text: string): boolean {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1;
  return crlf > 0 && crlf === lf;
}

/**
 * @param edit a normalised edit
 * @param textOf the text each edit applies to (its basis), when known
 * @returns the edit with CRLF new text for CRLF files
 */
export function keepLineEndings(edit: NormalizedWorkspaceEdit, textOf: (path: string) => string | undefined): NormalizedWorkspaceEdit {
  return {
    steps: edit.steps.map((step) => {
      if (step.kind !== 'edit') return step;
      const text = textOf(step.path);
      if (text === undefined || !usesCrlf(text)) return step;
      return { ...step, edits: step.edits.map((e) => ({ ...e, newText: e.newText.replaceAll(/\r?\n/g, '\r\n') })) };
    }),
  };
}
