/**
 * The dsh-lsp-actions VS Code extension: UI only. One `dsh-lsp-actions serve` backend per
 * workspace folder; everything shown (problems, quick fixes, formatting, renames, sessions,
 * freshness) comes from the backend over `lsp-actions/v1`, and every write is one of its write
 * actions. Returns a small API for the extension-host tests.
 */
import * as vscode from 'vscode';
import { APPLY_COMMAND, BackendCodeActionProvider, type ApplyCodeActionArgs } from './code-action-provider.ts';
import { offerOwnership } from './coexistence.ts';
import { DiagnosticsFeed } from './diagnostics-feed.ts';
import { BackendFormattingProvider, BackendRenameProvider } from './edit-providers.ts';
import { FolderBackend } from './folder-backend.ts';
import { ownedLanguages, selectorFor } from './ownership.ts';
import { Prompter, type AskedQuestion } from './prompter.ts';
import type { StartFailure } from './start-failure.ts';
import { WorkspaceBackendConsent } from './workspace-backend-consent.ts';
import { registerNavigationProviders } from './navigation-providers.ts';
import { SessionsPicker } from './sessions-picker.ts';
import { statusView } from './status-text.ts';
import { absolutePath } from './wire-mapping.ts';
import { WriteCommands, type RenameArgs } from './write-commands.ts';
import type { Notifier } from './write-runner.ts';
import type { WireDiagnostics, WireEvent } from './wire-types.ts';

/** What the extension-host tests may look at (toasts are invisible there). */
export interface ExtensionApi {
  backendPid(folder?: vscode.Uri): number | undefined;
  backendState(folder?: vscode.Uri): string | undefined;
  statusBar(): { text: string; tooltip: string };
  /** Every distinct text/tooltip the status bar item showed, oldest first. */
  statusHistory: { text: string; tooltip: string }[];
  notifications: { level: 'error' | 'info'; message: string }[];
  freshness(uri: vscode.Uri): string | undefined;
  /** The backend epoch the shown diagnostics of a file came from. */
  freshnessEpoch(uri: vscode.Uri): number | undefined;
  /** The labels of the open Show Sessions picker, if open. */
  sessionsShown(): string[] | undefined;
  /** Every question asked (trust, coexistence), oldest first. */
  prompts: AskedQuestion[];
  /** Answers the oldest open question with this id, as a click on `choice` would. */
  answerPrompt(id: string, choice: string): boolean;
  /** The backend process epoch (unique per process started). */
  backendEpoch(folder?: vscode.Uri): number | undefined;
  /** How many backend processes were started for the folder's current backend. */
  backendAttempts(folder?: vscode.Uri): number | undefined;
  /** Where the folder's backend executable came from (`setting`, `workspace`, `path`). */
  backendSource(folder?: vscode.Uri): string | undefined;
  /** Every action run against any backend, in order (`diagnostics.get`, `format.edits`, …). */
  actionsRun: string[];
}

let stopAll: (() => Promise<void>) | undefined;

function debounce(): number {
  return vscode.workspace.getConfiguration('dshLspActions').get<number>('diagnosticsDebounceMs', 400);
}

/**
 * @param context the extension context
 * @returns the test API
 */
export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const output = vscode.window.createOutputChannel('dsh-lsp-actions');
  const status = vscode.window.createStatusBarItem('dshLspActions.status', vscode.StatusBarAlignment.Left, 10);
  status.name = 'dsh-lsp-actions';
  status.command = 'dshLspActions.showOutput';
  const backends = new Map<string, FolderBackend>();
  const notifications: ExtensionApi['notifications'] = [];
  const statusHistory: ExtensionApi['statusHistory'] = [];
  const notifier: Notifier = {
    error(message) {
      notifications.push({ level: 'error', message });
      output.appendLine(`error: ${message}`);
      void vscode.window.showErrorMessage(message);
    },
    info(message) {
      notifications.push({ level: 'info', message });
      void vscode.window.showInformationMessage(message);
    },
  };
  const backendFor = (uri: vscode.Uri): FolderBackend | undefined => {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return folder === undefined ? undefined : backends.get(folder.uri.toString());
  };
  const prompter = new Prompter();
  const consent = new WorkspaceBackendConsent(context.workspaceState, prompter);
  const actionsRun: string[] = [];
  const picker = new SessionsPicker();
  const feed = new DiagnosticsFeed(backendFor, () => updateStatus(), (line) => output.appendLine(line));

  function activeBackend(): FolderBackend | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return (uri === undefined ? undefined : backendFor(uri)) ?? backends.values().next().value;
  }

  function updateStatus(): void {
    const backend = activeBackend();
    if (backend === undefined) {
      status.hide();
      return;
    }
    const uri = vscode.window.activeTextEditor?.document.uri;
    const inFolder = uri !== undefined && backendFor(uri) === backend;
    const fresh = inFolder ? feed.freshness(uri) : undefined;
    const shown = inFolder ? (feed.collection.get(uri) ?? []) : [];
    const view = statusView({
      state: backend.state,
      restartInSeconds: backend.restartInSeconds,
      freshness: fresh?.state,
      file: inFolder ? vscode.workspace.asRelativePath(uri) : undefined,
      counts: inFolder
        ? {
            errors: shown.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length,
            warnings: shown.filter((d) => d.severity === vscode.DiagnosticSeverity.Warning).length,
          }
        : undefined,
      sessionId: backend.sessionId,
      detail: backend.detail,
    });
    status.text = view.text;
    status.tooltip = view.tooltip;
    const last = statusHistory.at(-1);
    if (last?.text !== view.text || last.tooltip !== view.tooltip) statusHistory.push({ text: view.text, tooltip: view.tooltip });
    status.backgroundColor =
      view.alarm === 'none' ? undefined : new vscode.ThemeColor(view.alarm === 'error' ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground');
    status.command =
      backend.state === 'crashed' || backend.state === 'failed'
        ? 'dshLspActions.restart'
        : backend.state === 'missing'
          ? 'dshLspActions.configure'
          : backend.state === 'untrusted'
            ? 'dshLspActions.allowWorkspaceBackend'
            : 'dshLspActions.showOutput';
    status.show();
  }

  function onEvent(backend: FolderBackend, event: WireEvent, epoch: number): void {
    const root = typeof event['workspaceRoot'] === 'string' ? event['workspaceRoot'] : backend.folder.uri.fsPath;
    if (event.kind === 'diagnostics.updated') feed.apply(backend, { ...(event as unknown as WireDiagnostics), workspaceRoot: root }, epoch);
    else if (event.kind === 'file.changed' && typeof event['filePath'] === 'string') feed.invalidate(vscode.Uri.file(absolutePath(event['filePath'], root)));
    else if (event.kind === 'sessions.changed') {
      picker.refresh();
      updateStatus();
    }
  }

  /** One notification per give-up, with the backend's own reason and the action that fixes it. */
  function tellFailed(backend: FolderBackend, failure: StartFailure): void {
    const message = `dsh-lsp-actions could not start its backend for "${backend.folder.name}": ${failure.reason}. ${failure.advice}`;
    notifications.push({ level: 'error', message });
    output.appendLine(`error: ${message}`);
    const button = failure.action === 'openSettings' ? 'Open User Settings' : 'Show Output';
    void vscode.window.showErrorMessage(message, button, 'Restart Backend').then((choice) => {
      if (choice === 'Open User Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'dshLspActions.serverPath');
      else if (choice === 'Show Output') output.show(true);
      else if (choice === 'Restart Backend') void backend.restart();
    });
  }

  function startFolder(folder: vscode.WorkspaceFolder): void {
    if (backends.has(folder.uri.toString()) || folder.uri.scheme !== 'file') return;
    const backend = new FolderBackend(folder, {
      output,
      changed: () => updateStatus(),
      event: onEvent,
      ready: (b) => {
        for (const document of vscode.workspace.textDocuments) if (backendFor(document.uri) === b) feed.schedule(document, 0);
        updateStatus();
      },
      restarting: (b) => feed.restarted(b),
      missing: (_b, detail) => {
        const message = `dsh-lsp-actions: ${detail}`;
        notifications.push({ level: 'error', message });
        void vscode.window.showErrorMessage(message, 'Configure').then((choice) => {
          if (choice === 'Configure') void vscode.commands.executeCommand('dshLspActions.configure');
        });
      },
      failed: tellFailed,
      allowWorkspaceBackend: (f, command) => consent.allowed(f, command),
      ran: (action) => {
        actionsRun.push(action);
        if (actionsRun.length > 2000) actionsRun.splice(0, 1000);
      },
    });
    backends.set(folder.uri.toString(), backend);
    void backend.start();
    updateStatus();
  }

  async function stopFolder(key: string): Promise<void> {
    const backend = backends.get(key);
    if (backend === undefined) return;
    backends.delete(key);
    feed.forgetFolder(backend);
    await backend.stop();
    updateStatus();
  }

  stopAll = async () => {
    await Promise.all([...backends.keys()].map((key) => stopFolder(key)));
  };

  const restartAll = async (): Promise<void> => {
    const folders = [...backends.values()].map((b) => b.folder);
    await stopAll?.();
    for (const folder of folders) startFolder(folder);
  };

  const navigation = registerNavigationProviders(backendFor);
  const formatter = new BackendFormattingProvider(backendFor);
  const renamer = new BackendRenameProvider(backendFor);
  /** Format and rename providers, for the languages owned now (re-registered when that changes). */
  const editProviders: vscode.Disposable[] = [];
  const registerEditProviders = (): void => {
    for (const registration of editProviders.splice(0)) registration.dispose();
    const selector = selectorFor(ownedLanguages());
    editProviders.push(
      vscode.languages.registerDocumentFormattingEditProvider(selector, formatter),
      vscode.languages.registerDocumentRangeFormattingEditProvider(selector, formatter),
      vscode.languages.registerRenameProvider(selector, renamer),
    );
  };
  registerEditProviders();
  const writes = new WriteCommands({ backendFor, notifier, changed: (uri) => feed.invalidate(uri) });

  context.subscriptions.push(
    output,
    status,
    feed,
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new BackendCodeActionProvider(backendFor, feed.collection), {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix, vscode.CodeActionKind.Refactor, vscode.CodeActionKind.Source, vscode.CodeActionKind.SourceOrganizeImports],
    }),
    vscode.commands.registerCommand(APPLY_COMMAND, (args: ApplyCodeActionArgs) => writes.applyCodeAction(args)),
    vscode.commands.registerCommand('dshLspActions.formatDocument', (uri?: vscode.Uri | string) => writes.formatDocument(uri)),
    vscode.commands.registerCommand('dshLspActions.organizeImports', (uri?: vscode.Uri | string) => writes.organizeImports(uri)),
    vscode.commands.registerCommand('dshLspActions.renameSymbol', (args?: RenameArgs) => writes.renameSymbol(args)),
    vscode.commands.registerCommand('dshLspActions.showSessions', () => picker.show(() => [...backends.values()], () => updateStatus())),
    vscode.commands.registerCommand('dshLspActions.restart', async () => {
      const backend = activeBackend();
      if (backend === undefined) return restartAll();
      if (backend.state === 'missing' || backend.state === 'untrusted' || backend.pid === undefined && backend.attempts === 0) {
        await stopFolder(backend.folder.uri.toString());
        startFolder(backend.folder);
        return;
      }
      await backend.restart();
    }),
    vscode.commands.registerCommand('dshLspActions.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('dshLspActions.configure', () => vscode.commands.executeCommand('workbench.action.openSettings', 'dshLspActions.serverPath')),
    vscode.commands.registerCommand('dshLspActions.allowWorkspaceBackend', async () => {
      // Collected first: restarting a folder replaces its entry in the map.
      const denied = [...backends.values()].filter((b) => b.state === 'untrusted' && b.deniedCommand !== undefined);
      for (const backend of denied) {
        await consent.remember(backend.folder, backend.deniedCommand as string, true);
        await stopFolder(backend.folder.uri.toString());
        startFolder(backend.folder);
      }
    }),
    vscode.workspace.onDidOpenTextDocument((d) => feed.schedule(d, 0)),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0) feed.schedule(e.document, debounce());
    }),
    vscode.workspace.onDidSaveTextDocument((d) => feed.schedule(d, 0)),
    vscode.workspace.onDidCloseTextDocument((d) => feed.forget(d.uri)),
    vscode.window.onDidChangeActiveTextEditor(() => updateStatus()),
    vscode.workspace.onDidChangeWorkspaceFolders((e) => {
      for (const removed of e.removed) void stopFolder(removed.uri.toString());
      for (const added of e.added) startFolder(added);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('dshLspActions.serverPath') || e.affectsConfiguration('dshLspActions.sandbox')) void restartAll();
      if (e.affectsConfiguration('typescript.validate.enable') || e.affectsConfiguration('javascript.validate.enable')) {
        registerEditProviders();
        feed.reconsider();
      }
      if (['hover', 'definition', 'references', 'inlayHints'].some((k) => e.affectsConfiguration(`dshLspActions.${k}.enabled`))) {
        for (const registration of navigation.splice(0)) registration.dispose();
        navigation.push(...registerNavigationProviders(backendFor));
      }
    }),
    { dispose: () => navigation.forEach((registration) => registration.dispose()) },
    { dispose: () => editProviders.forEach((registration) => registration.dispose()) },
  );
  for (const folder of vscode.workspace.workspaceFolders ?? []) startFolder(folder);
  updateStatus();
  void offerOwnership(context.workspaceState, prompter);

  const pick = (folder?: vscode.Uri): FolderBackend | undefined =>
    folder === undefined ? backends.values().next().value : backends.get(folder.toString());
  return {
    backendPid: (folder) => pick(folder)?.pid,
    backendState: (folder) => pick(folder)?.state,
    statusBar: () => ({ text: status.text, tooltip: typeof status.tooltip === 'string' ? status.tooltip : '' }),
    notifications,
    statusHistory,
    freshness: (uri) => feed.freshness(uri)?.state,
    freshnessEpoch: (uri) => feed.freshness(uri)?.epoch,
    sessionsShown: () => picker.shownLabels,
    prompts: prompter.asked,
    answerPrompt: (id, choice) => prompter.answer(id, choice),
    backendEpoch: (folder) => pick(folder)?.epoch,
    backendAttempts: (folder) => pick(folder)?.attempts,
    backendSource: (folder) => pick(folder)?.source,
    actionsRun,
  };
}

/** Ends every backend: no language-server process is left behind. */
export async function deactivate(): Promise<void> {
  await stopAll?.();
  stopAll = undefined;
}
