/**
 * "Show Sessions": a quick pick of the live DSH sessions (`sessions` of `lsp.actions.list`, kept
 * current by `sessions.changed` while it is open). The chosen session is sent with write runs,
 * so they run under that session's permission preset; "No session" uses the backend's own.
 */
import * as vscode from 'vscode';
import type { FolderBackend } from './folder-backend.ts';

type SessionItem = vscode.QuickPickItem & { sessionId: string | undefined; backend: FolderBackend };

/** The open picker, if any, refreshed on `sessions.changed`. */
export class SessionsPicker {
  #open: { pick: vscode.QuickPick<SessionItem>; backends: () => FolderBackend[] } | undefined;

  /**
   * @param backends the running backends
   * @param changed called after a choice
   */
  show(backends: () => FolderBackend[], changed: () => void): void {
    const pick = vscode.window.createQuickPick<SessionItem>();
    pick.title = 'dsh-lsp-actions sessions (writes run under the chosen session)';
    pick.placeholder = 'Choose the session write actions are bound to';
    this.#open = { pick, backends };
    this.refresh();
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0];
      if (item !== undefined) item.backend.sessionId = item.sessionId;
      pick.hide();
      changed();
    });
    pick.onDidHide(() => {
      pick.dispose();
      if (this.#open?.pick === pick) this.#open = undefined;
    });
    pick.show();
  }

  /** Rebuilds the items of the open picker (after `sessions.changed`). */
  refresh(): void {
    const open = this.#open;
    if (open === undefined) return;
    const items: SessionItem[] = [];
    for (const backend of open.backends()) {
      items.push({
        label: `$(circle-slash) No session — ${backend.folder.name}`,
        description: backend.sessionId === undefined ? 'current' : '',
        detail: "Writes run under the backend's own sandbox preset (dshLspActions.sandbox)",
        sessionId: undefined,
        backend,
      });
      for (const session of backend.sessions) {
        items.push({
          label: `$(account) ${session.sessionId}`,
          description: backend.sessionId === session.sessionId ? 'current' : session.live === false ? 'not live' : 'live',
          detail: session.cwd === '' ? '(no working directory)' : session.cwd,
          sessionId: session.sessionId,
          backend,
        });
      }
    }
    open.pick.items = items;
  }

  /** @returns the labels shown, for tests */
  get shownLabels(): string[] | undefined {
    return this.#open?.pick.items.map((i) => i.label);
  }
}
