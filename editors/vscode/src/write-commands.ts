/**
 * The write commands: apply a listed code action, Format Document, Organize Imports and Rename
 * Symbol (an input box holding the current name). Each one goes through `runWrite`, i.e. the
 * backend's write action with the permission preset, conflict pin and all-or-nothing writes.
 */
import * as vscode from 'vscode';
import type { ApplyCodeActionArgs } from './code-action-provider.ts';
import type { FolderBackend } from './folder-backend.ts';
import { fromPosition } from './wire-mapping.ts';
import { runWrite, type Notifier } from './write-runner.ts';
import type { WireWriteResult } from './wire-types.ts';

/** What the commands need from the extension. */
export interface WriteContext {
  backendFor(uri: vscode.Uri): FolderBackend | undefined;
  notifier: Notifier;
  changed(uri: vscode.Uri): void;
}

/** Optional arguments of Rename Symbol (the input box asks when `newName` is absent). */
export interface RenameArgs {
  uri?: string;
  position?: { line: number; character: number };
  newName?: string;
}

/** The registered write commands. */
export class WriteCommands {
  readonly #ctx: WriteContext;

  constructor(ctx: WriteContext) {
    this.#ctx = ctx;
  }

  /**
   * @param args the code action chosen in the menu
   * @returns the write result, undefined when refused
   */
  async applyCodeAction(args: ApplyCodeActionArgs): Promise<WireWriteResult | undefined> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(args.uri));
    const backend = this.#backend(document);
    if (backend === undefined) return undefined;
    const quickfix = args.kind === undefined || args.kind === 'quickfix' || args.kind.startsWith('quickfix.');
    const params: Record<string, unknown> = { range: args.range, title: args.title };
    if (!quickfix) params['only'] = [args.kind];
    return runWrite(backend, document, quickfix ? 'quickfix.apply' : 'codeAction.apply', params, `"${args.title}"`, this.#ctx.notifier, (uri) =>
      this.#ctx.changed(uri),
    );
  }

  /**
   * @param uri the file (default: the active editor's)
   * @returns the write result, undefined when refused
   */
  async formatDocument(uri?: vscode.Uri | string): Promise<WireWriteResult | undefined> {
    const document = await this.#document(uri);
    const backend = document === undefined ? undefined : this.#backend(document);
    if (document === undefined || backend === undefined) return undefined;
    return runWrite(backend, document, 'format', {}, 'Format Document', this.#ctx.notifier, (u) => this.#ctx.changed(u));
  }

  /**
   * @param uri the file (default: the active editor's)
   * @returns the write result, undefined when refused
   */
  async organizeImports(uri?: vscode.Uri | string): Promise<WireWriteResult | undefined> {
    const document = await this.#document(uri);
    const backend = document === undefined ? undefined : this.#backend(document);
    if (document === undefined || backend === undefined) return undefined;
    return runWrite(backend, document, 'organizeImports', {}, 'Organize Imports', this.#ctx.notifier, (u) => this.#ctx.changed(u));
  }

  /**
   * @param args file, position and new name; by default the active editor's cursor and an input box
   * @returns the write result, undefined when cancelled or refused
   */
  async renameSymbol(args: RenameArgs = {}): Promise<WireWriteResult | undefined> {
    const editor = vscode.window.activeTextEditor;
    const document = await this.#document(args.uri);
    if (document === undefined) return undefined;
    const backend = this.#backend(document);
    if (backend === undefined) return undefined;
    const position =
      args.position !== undefined
        ? new vscode.Position(args.position.line, args.position.character)
        : editor !== undefined && editor.document.uri.toString() === document.uri.toString()
          ? editor.selection.active
          : undefined;
    if (position === undefined) {
      this.#ctx.notifier.error('Rename Symbol: put the cursor on a symbol first.');
      return undefined;
    }
    const wordRange = document.getWordRangeAtPosition(position);
    const current = wordRange === undefined ? '' : document.getText(wordRange);
    const newName =
      args.newName ??
      (await vscode.window.showInputBox({
        title: 'Rename Symbol',
        prompt: `New name for ${current === '' ? 'the symbol' : `"${current}"`}`,
        value: current,
        valueSelection: [0, current.length],
        validateInput: (value) => (value.trim() === '' ? 'Enter a name' : undefined),
      }));
    if (newName === undefined || newName.trim() === '' || newName === current) return undefined;
    return runWrite(
      backend,
      document,
      'rename',
      { position: fromPosition(position), newName: newName.trim() },
      `Rename "${current}" to "${newName.trim()}"`,
      this.#ctx.notifier,
      (u) => this.#ctx.changed(u),
    );
  }

  async #document(uri?: vscode.Uri | string): Promise<vscode.TextDocument | undefined> {
    if (uri !== undefined) return vscode.workspace.openTextDocument(typeof uri === 'string' ? vscode.Uri.parse(uri) : uri);
    const active = vscode.window.activeTextEditor?.document;
    if (active === undefined) this.#ctx.notifier.error('Open a file first.');
    return active;
  }

  #backend(document: vscode.TextDocument): FolderBackend | undefined {
    const backend = this.#ctx.backendFor(document.uri);
    if (backend === undefined) {
      this.#ctx.notifier.error(`${vscode.workspace.asRelativePath(document.uri)} is not inside a workspace folder served by dsh-lsp-actions.`);
    }
    return backend;
  }
}
