/**
 * Quick fixes and refactors in the lightbulb / Ctrl+. menu, from `codeActions.list`: titles and
 * kinds as the backend lists them (marked " (dsh-lsp-actions)"), preferred first, disabled ones
 * with their reason. Each entry carries a command that applies it through the backend's write
 * action (`dshLspActions.applyCodeAction`), never through a VS Code workspace edit.
 * Only for documents this extension owns; for TypeScript/JavaScript it lists quick fixes and
 * Organize Imports (the backend's `organizeImports`, asked for by kind `source.organizeImports`
 * or `source`) and leaves refactors and other source actions to VS Code's built-in extension,
 * so nothing is listed twice (docs/decisions/0061-vscode-coexistence.md). Source actions are only
 * listed when asked for explicitly (menu, command), never for code-actions-on-save: a write
 * through the backend during a save would race the save.
 */
import * as vscode from 'vscode';
import type { FolderBackend } from './folder-backend.ts';
import { BUILTIN_LANGUAGES, ownsDocument } from './ownership.ts';
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

/** How our entries are told apart in a menu that also holds other extensions' entries. */
export const OUR_MARK = ' (dsh-lsp-actions)';

/**
 * @param languageId the document's language
 * @param kind an entry's kind
 * @param explicit whether the user asked (menu, command) rather than VS Code on its own (save)
 * @returns whether we list it
 */
export function listsKind(languageId: string, kind: string | undefined, explicit: boolean): boolean {
  const k = kind ?? 'quickfix';
  if (k.startsWith('source') && !explicit) return false;
  if (BUILTIN_LANGUAGES[languageId] === undefined) return true;
  return k === 'quickfix' || k.startsWith('quickfix.') || k === 'source.organizeImports' || k.startsWith('source.organizeImports.');
}

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
    if (backend === undefined || backend.state !== 'ready' || document.uri.scheme !== 'file' || !ownsDocument(document)) return [];
    const explicit = context.triggerKind === vscode.CodeActionTriggerKind.Invoke;
    if (context.only !== undefined && context.only.contains(vscode.CodeActionKind.Source) && !explicit) return [];
    // VS Code's Organize Imports (and the Source Action menu): the backend's `organizeImports`
    // action — typescript-language-server lists no `source.organizeImports` code action itself.
    const organize = explicit && context.only !== undefined && context.only.contains(vscode.CodeActionKind.SourceOrganizeImports) ? organizeImportsAction(document) : undefined;
    if (organize !== undefined && vscode.CodeActionKind.SourceOrganizeImports.contains(context.only as vscode.CodeActionKind)) return [organize];
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
    const items = listed.actions.filter((item) => listsKind(document.languageId, item.kind, explicit));
    const extra = organize !== undefined && !items.some((item) => (item.kind ?? '').startsWith('source.organizeImports')) ? [organize] : [];
    return [...extra, ...orderCodeActions(items).map((item) => {
      const action = new vscode.CodeAction(item.title + OUR_MARK, toCodeActionKind(vscode, item.kind));
      action.isPreferred = item.isPreferred === true;
      const reason = disabledReason(item.disabled);
      if (reason !== undefined) action.disabled = { reason };
      const fixes = ours.filter((d) => (item.diagnostics ?? []).includes(d.message));
      if (fixes.length > 0) action.diagnostics = fixes;
      const args: ApplyCodeActionArgs = { uri: document.uri.toString(), range: listed.range, title: item.title, index: item.index };
      if (item.kind !== undefined) args.kind = item.kind;
      action.command = { command: APPLY_COMMAND, title: item.title, arguments: [args] };
      return action;
    })];
  }
}

/**
 * @param document the document
 * @returns "Organize Imports (dsh-lsp-actions)", running the backend's `organizeImports` write
 *   (saved first, `expectedSha256` pin) through `dshLspActions.organizeImports`
 */
function organizeImportsAction(document: vscode.TextDocument): vscode.CodeAction {
  const action = new vscode.CodeAction(`Organize Imports${OUR_MARK}`, vscode.CodeActionKind.SourceOrganizeImports);
  action.command = { command: 'dshLspActions.organizeImports', title: 'Organize Imports', arguments: [document.uri.toString()] };
  return action;
}
