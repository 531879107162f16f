/**
 * VS Code's own Format Document, Format Selection, format on save and Rename Symbol (F2) for the
 * languages this extension owns, through the backend. VS Code's provider APIs must return edits
 * (VS Code applies them to the buffer; format on save runs before the buffer is written), so the
 * providers use the backend's read-only `format.edits`, `rename.prepare` and `rename.edits` with
 * the buffer's text, and apply the same pin as the extension's write commands: edits are
 * returned only for the exact text the language server computed them against (the backend's
 * `basisSha256` must equal the SHA-256 of the text VS Code holds, and the document must not have
 * changed meanwhile); otherwise the operation is refused with a conflict. A file whose basis the
 * backend cannot name is only edited while VS Code holds it unmodified (the text the server read
 * from disk). See docs/decisions/0062-vscode-standard-providers.md.
 */
import * as vscode from 'vscode';
import type { FolderBackend } from './folder-backend.ts';
import { ownsDocument } from './ownership.ts';
import { absolutePath, fromPosition, fromRange, toRange } from './wire-mapping.ts';
import type { WireEnvelope, WireRange } from './wire-types.ts';
import { sha256Hex } from './write-runner.ts';

interface WireTextEdit {
  range: WireRange;
  newText: string;
}

interface FormatEdits {
  edits: WireTextEdit[];
  basisSha256?: string;
}

interface RenamePrepared {
  found: boolean;
  range?: WireRange;
  placeholder?: string;
}

interface RenameEdits {
  files: { filePath: string; edits: WireTextEdit[]; basisSha256?: string }[];
  resourceOperations: number;
}

/** A refusal the user sees (VS Code shows a thrown error's message). */
export class EditRefused extends Error {}

function failure(what: string, envelope: WireEnvelope<unknown>): EditRefused {
  const error = envelope.error;
  return new EditRefused(`${what}: ${error?.message ?? 'no result'} (${error?.code ?? 'LSP_ACTION_SERVER_FAILED'})`);
}

const toEdits = (edits: WireTextEdit[]): vscode.TextEdit[] => edits.map((e) => new vscode.TextEdit(toRange(vscode, e.range), e.newText));

/** Format Document / Format Selection / format on save. */
export class BackendFormattingProvider implements vscode.DocumentFormattingEditProvider, vscode.DocumentRangeFormattingEditProvider {
  readonly #backendFor: (uri: vscode.Uri) => FolderBackend | undefined;

  constructor(backendFor: (uri: vscode.Uri) => FolderBackend | undefined) {
    this.#backendFor = backendFor;
  }

  provideDocumentFormattingEdits(document: vscode.TextDocument, _options: vscode.FormattingOptions, token: vscode.CancellationToken): Promise<vscode.TextEdit[] | undefined> {
    return this.#format(document, undefined, token);
  }

  provideDocumentRangeFormattingEdits(
    document: vscode.TextDocument,
    range: vscode.Range,
    _options: vscode.FormattingOptions,
    token: vscode.CancellationToken,
  ): Promise<vscode.TextEdit[] | undefined> {
    return this.#format(document, range, token);
  }

  async #format(document: vscode.TextDocument, range: vscode.Range | undefined, token: vscode.CancellationToken): Promise<vscode.TextEdit[] | undefined> {
    const backend = this.#backendFor(document.uri);
    if (backend === undefined || !ownsDocument(document)) return undefined;
    const version = document.version;
    const text = document.getText();
    const params: Record<string, unknown> = { filePath: backend.relativePath(document.uri), text };
    if (range !== undefined) params['range'] = fromRange(range);
    const envelope = await backend.run<FormatEdits>('format.edits', params);
    if (token.isCancellationRequested || document.version !== version) return undefined;
    if (envelope.status !== 'succeeded' || envelope.result === undefined) throw failure('Format', envelope);
    if (envelope.result.basisSha256 !== sha256Hex(text)) {
      throw new EditRefused('Format: the language server formatted another text than the editor holds; nothing was changed (LSP_ACTION_CONFLICT)');
    }
    return toEdits(envelope.result.edits);
  }
}

/** Rename Symbol (F2), with prepareRename. */
export class BackendRenameProvider implements vscode.RenameProvider {
  readonly #backendFor: (uri: vscode.Uri) => FolderBackend | undefined;

  constructor(backendFor: (uri: vscode.Uri) => FolderBackend | undefined) {
    this.#backendFor = backendFor;
  }

  async prepareRename(document: vscode.TextDocument, position: vscode.Position): Promise<{ range: vscode.Range; placeholder: string } | undefined> {
    const backend = this.#backendFor(document.uri);
    if (backend === undefined || !ownsDocument(document)) return undefined;
    const envelope = await backend.run<RenamePrepared>('rename.prepare', {
      filePath: backend.relativePath(document.uri),
      position: fromPosition(position),
      text: document.getText(),
    });
    if (envelope.status !== 'succeeded' || envelope.result === undefined) throw failure('Rename', envelope);
    if (!envelope.result.found) throw new EditRefused('You cannot rename this element.');
    const range = envelope.result.range !== undefined ? toRange(vscode, envelope.result.range) : document.getWordRangeAtPosition(position);
    if (range === undefined) throw new EditRefused('You cannot rename this element.');
    return { range, placeholder: envelope.result.placeholder ?? document.getText(range) };
  }

  async provideRenameEdits(document: vscode.TextDocument, position: vscode.Position, newName: string, token: vscode.CancellationToken): Promise<vscode.WorkspaceEdit | undefined> {
    const backend = this.#backendFor(document.uri);
    if (backend === undefined || !ownsDocument(document)) return undefined;
    const version = document.version;
    const text = document.getText();
    const envelope = await backend.run<RenameEdits>('rename.edits', {
      filePath: backend.relativePath(document.uri),
      position: fromPosition(position),
      newName,
      text,
    });
    if (token.isCancellationRequested || document.version !== version) return undefined;
    if (envelope.status !== 'succeeded' || envelope.result === undefined) throw failure('Rename', envelope);
    if (envelope.result.resourceOperations > 0) throw new EditRefused('Rename: this rename also creates, moves or deletes files; use "dsh-lsp-actions: Rename Symbol" instead.');
    const edit = new vscode.WorkspaceEdit();
    for (const file of envelope.result.files) {
      const uri = vscode.Uri.file(absolutePath(file.filePath, backend.folder.uri.fsPath));
      const target = uri.toString() === document.uri.toString() ? document : await vscode.workspace.openTextDocument(uri);
      const now = target.getText();
      const pinned = file.basisSha256 !== undefined ? file.basisSha256 === sha256Hex(now) : !target.isDirty;
      if (!pinned) {
        throw new EditRefused(`Rename: ${vscode.workspace.asRelativePath(uri)} changed since the language server read it; nothing was changed (LSP_ACTION_CONFLICT)`);
      }
      edit.set(uri, toEdits(file.edits));
    }
    return edit;
  }
}
