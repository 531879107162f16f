/**
 * The first-run offer (docs/decisions/0061-vscode-coexistence.md): when VS Code's built-in
 * TypeScript/JavaScript validation is on in this workspace, or another formatter would be asked
 * for these languages, offer once per workspace to let dsh-lsp-actions own their problems,
 * fixes and formatting. Yes → workspace settings: `typescript.validate.enable` and
 * `javascript.validate.enable` false, and this extension as `editor.defaultFormatter` for the
 * four languages. No → remembered; the built-in keeps TypeScript/JavaScript (ownership.ts) and
 * this extension shows nothing for them. Either way nothing is shown twice.
 */
import * as vscode from 'vscode';
import { BUILTIN_LANGUAGES, builtinValidates } from './ownership.ts';
import type { Prompter } from './prompter.ts';

/** This extension's id (publisher.name). */
export const EXTENSION_ID = 'dsh-lsp-actions.dsh-lsp-actions-vscode';
/** The button that hands TypeScript/JavaScript to dsh-lsp-actions. */
export const USE_OURS = 'Use dsh-lsp-actions';
/** The button that keeps VS Code's built-in. */
export const KEEP_BUILTIN = "Keep VS Code's";
const ASKED = 'dshLspActions.coexistenceAsked';

/** @returns whether anything would be shown twice or formatted by someone else */
export function needsOffer(): boolean {
  return Object.entries(BUILTIN_LANGUAGES).some(
    ([language, section]) =>
      builtinValidates(section) || vscode.workspace.getConfiguration('editor', { languageId: language }).get<string>('defaultFormatter') !== EXTENSION_ID,
  );
}

/** Hands TypeScript/JavaScript to dsh-lsp-actions in this workspace's settings. */
export async function takeOwnership(): Promise<void> {
  const target = vscode.ConfigurationTarget.Workspace;
  await vscode.workspace.getConfiguration('typescript').update('validate.enable', false, target);
  await vscode.workspace.getConfiguration('javascript').update('validate.enable', false, target);
  for (const language of Object.keys(BUILTIN_LANGUAGES)) {
    await vscode.workspace.getConfiguration('editor', { languageId: language }).update('defaultFormatter', EXTENSION_ID, target, true);
  }
}

/**
 * Asks once per workspace (no folder open: never).
 * @param state the workspace state
 * @param prompter where questions go
 */
export async function offerOwnership(state: vscode.Memento, prompter: Prompter): Promise<void> {
  if ((vscode.workspace.workspaceFolders ?? []).length === 0 || state.get<boolean>(ASKED, false) || !needsOffer()) return;
  const choice = await prompter.ask(
    'coexistence',
    'info',
    "VS Code's built-in TypeScript/JavaScript support would show problems, quick fixes or formatting next to dsh-lsp-actions here. Let dsh-lsp-actions own them in this workspace (turns the built-in validation off and makes dsh-lsp-actions the formatter)?",
    [USE_OURS, KEEP_BUILTIN],
  );
  if (choice === undefined) return;
  await state.update(ASKED, true);
  if (choice === USE_OURS) await takeOwnership();
}
