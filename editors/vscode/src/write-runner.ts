/**
 * Runs a write action (`quickfix.apply`, `codeAction.apply`, `format`, `rename`,
 * `organizeImports`) the way a user expects: a dirty buffer is saved first (the backend writes
 * files on disk and refuses unsaved `text` for writes; saving is what "apply" means in every
 * editor), the request carries `expectedSha256` = SHA-256 of the text the editor holds, so a file
 * changed behind the editor's back is refused (`LSP_ACTION_CONFLICT`) instead of clobbered, and
 * a failure is a notification with the backend's code. VS Code then shows the new text from
 * disk (its file watcher reloads clean documents).
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { errorNotification } from './error-message.ts';
import type { FolderBackend } from './folder-backend.ts';
import { absolutePath } from './wire-mapping.ts';
import type { WireEnvelope, WireWriteResult } from './wire-types.ts';

/** Where notifications go (recorded for the extension-host tests, which cannot see toasts). */
export interface Notifier {
  error(message: string): void;
  info(message: string): void;
}

/**
 * @param text a document's text
 * @returns lowercase hex SHA-256 of its UTF-8 bytes
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * @param backend the folder's backend
 * @param document the document the action is about
 * @param action the write action
 * @param params its params (without `filePath`, `workspaceRoot`, `expectedSha256`)
 * @param what the user-facing name of the operation
 * @param notifier where failures are told
 * @param onChanged called with every file the backend changed
 * @returns the result on success, undefined when refused or failed (nothing changed then)
 */
export async function runWrite(
  backend: FolderBackend,
  document: vscode.TextDocument,
  action: string,
  params: Record<string, unknown>,
  what: string,
  notifier: Notifier,
  onChanged: (uri: vscode.Uri) => void,
): Promise<WireWriteResult | undefined> {
  if (document.isDirty && !(await document.save())) {
    notifier.error(`${what} needs the file saved first, and saving ${backend.relativePath(document.uri)} failed.`);
    return undefined;
  }
  let envelope: WireEnvelope<WireWriteResult>;
  try {
    envelope = await backend.run<WireWriteResult>(
      action,
      { ...params, filePath: backend.relativePath(document.uri), expectedSha256: sha256Hex(document.getText()) },
      true,
    );
  } catch (error) {
    notifier.error(`${what} failed: ${(error as Error).message}`);
    return undefined;
  }
  if (envelope.status !== 'succeeded' || envelope.result === undefined) {
    notifier.error(errorNotification(what, envelope.error ?? { code: 'LSP_ACTION_SERVER_FAILED', message: 'no result' }));
    return undefined;
  }
  const result = envelope.result;
  if (result.kind === 'unchanged') {
    notifier.info(`${what}: nothing to change${result.reason !== undefined ? ` (${result.reason})` : ''}.`);
    return result;
  }
  for (const uri of changedFiles(result, backend.folder.uri.fsPath, document.uri)) onChanged(uri);
  return result;
}

/**
 * @param result a write result
 * @param root the workspace root relative paths are relative to
 * @param fallback the request's file
 * @returns every file the write changed
 */
export function changedFiles(result: WireWriteResult, root: string, fallback: vscode.Uri): vscode.Uri[] {
  const paths = new Set<string>();
  for (const entry of [...(result.diffs ?? []), ...(result.files ?? [])]) paths.add(absolutePath(entry.filePath, root));
  if (paths.size === 0) return [fallback];
  return [...paths].map((p) => vscode.Uri.file(p));
}
