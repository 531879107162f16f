/**
 * A backend found inside the opened folder (`node_modules/.bin/dsh-lsp-actions`) is code the
 * folder brings: it runs only after the user allowed it once for that folder, as VS Code asks
 * before using a workspace's own TypeScript. The answer (allowed or not) is remembered per folder
 * and executable in the workspace state; "dsh-lsp-actions: Allow the Workspace's Backend" allows
 * it later. Dismissing the question decides nothing (asked again next time).
 */
import type * as vscode from 'vscode';
import type { Prompter } from './prompter.ts';

const KEY = 'dshLspActions.workspaceBackend';
/** The button that allows it. */
export const ALLOW = 'Allow';
/** The button that refuses it. */
export const DENY = "Don't Allow";

type Decisions = Record<string, 'allowed' | 'denied'>;

/** Remembers and asks. */
export class WorkspaceBackendConsent {
  readonly #state: vscode.Memento;
  readonly #prompter: Prompter;

  constructor(state: vscode.Memento, prompter: Prompter) {
    this.#state = state;
    this.#prompter = prompter;
  }

  #key(folder: vscode.WorkspaceFolder, command: string): string {
    return `${folder.uri.toString()}\n${command}`;
  }

  /**
   * @param folder the folder
   * @param command the folder's own backend executable
   * @returns whether it may run (asks when not decided yet)
   */
  async allowed(folder: vscode.WorkspaceFolder, command: string): Promise<boolean> {
    const key = this.#key(folder, command);
    const known = this.#state.get<Decisions>(KEY, {})[key];
    if (known !== undefined) return known === 'allowed';
    const choice = await this.#prompter.ask(
      `trust:${folder.uri.fsPath}`,
      'warning',
      `The folder "${folder.name}" contains its own dsh-lsp-actions backend (${command}). Allow it to run? It is a program the folder brings; dsh-lsp-actions runs it with your permissions.`,
      [ALLOW, DENY],
    );
    if (choice === undefined) return false;
    await this.remember(folder, command, choice === ALLOW);
    return choice === ALLOW;
  }

  /**
   * @param folder the folder
   * @param command its backend executable
   * @param allow the decision
   */
  async remember(folder: vscode.WorkspaceFolder, command: string, allow: boolean): Promise<void> {
    const decisions = { ...this.#state.get<Decisions>(KEY, {}) };
    decisions[this.#key(folder, command)] = allow ? 'allowed' : 'denied';
    await this.#state.update(KEY, decisions);
  }
}
