/**
 * Quick fixes and refactors in the lightbulb / Ctrl+. menu, from `codeActions.list`: titles and
 * kinds as the backend lists them, preferred first, disabled ones with their reason. Each entry
 * carries a command that applies it through the backend's write action
 * (`dshLspActions.applyCodeAction`), never through a VS Code workspace edit.
 */
import * as vscode from 'vscode';
import type { FolderBackend } from './folder-backend.ts';
import { disabledReason, fromRange, orderCodeActions, toCodeActionKind } from './wire-mapping.ts';
import type { WireCodeActions, WireRange } from './wire-types.ts';

/** The argument of `dshLspActions.applyCodeAction`. */
export interface ApplyCodeActionArgs {
  uri: string;
  range: WireRange;
  title: string;
  index: number;
  kind?: string;
}

/** The command id the entries run. */
export const APPLY_COMMAND = 'dshLspActions.applyCodeAction';

/** Lists the backend's code actions for a range. */
export class BackendCodeActionProvider implements vscode.CodeActionProvider {
  readonly #backendFor: (uri: vscode.Uri) => FolderBackend | undefined;
  readonly #collection: vscode.DiagnosticCollection;

  constructor(backendFor: (uri: vscode.Uri) => FolderBackend | undefined, collection: vscode.DiagnosticCollection) {
    this.#backendFor = backendFor;
    this.#collection = collection;
  }

  async provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.CodeAction[]> {
    const backend = this.#backendFor(document.uri);
    if (backend === undefined || backend.state !== 'ready' || document.uri.scheme !== 'file') return [];
    const params: Record<string, unknown> = { filePath: backend.relativePath(document.uri), range: fromRange(range), preview: false };
    if (context.only !== undefined) params['only'] = [context.only.value];
    if (document.isDirty) params['text'] = document.getText();
    let envelope;
    try {
      envelope = await backend.run<WireCodeActions>('codeActions.list', params);
    } catch {
      return [];
    }
    if (token.isCancellationRequested || envelope.status !== 'succeeded' || envelope.result === undefined) return [];
    const listed = envelope.result;
    const ours = this.#collection.get(document.uri) ?? [];
    return orderCodeActions(listed.actions).map((item) => {
      const action = new vscode.CodeAction(item.title, toCodeActionKind(vscode, item.kind));
      action.isPreferred = item.isPreferred === true;
      const reason = disabledReason(item.disabled);
      if (reason !== undefined) action.disabled = { reason };
      const fixes = ours.filter((d) => (item.diagnostics ?? []).includes(d.message));
      if (fixes.length > 0) action.diagnostics = fixes;
      const args: ApplyCodeActionArgs = { uri: document.uri.toString(), range: listed.range, title: item.title, index: item.index };
      if (item.kind !== undefined) args.kind = item.kind;
      action.command = { command: APPLY_COMMAND, title: item.title, arguments: [args] };
      return action;
    });
  }
}
