/**
 * The backend of one workspace folder, as the rest of the extension sees it: its lifecycle
 * state, its live sessions and the session chosen for writes, and `run` with workspace-relative
 * paths. Resolves the executable (setting → workspace node_modules/.bin → PATH) and spawns
 * `dsh-lsp-actions serve --workspace <folder> --sandbox <mode>`.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { relative } from 'node:path';
import * as vscode from 'vscode';
import { BackendProcess } from './backend-process.ts';
import { resolveBackend, serveArgs } from './backend-resolution.ts';
import type { BackendState } from './status-text.ts';
import type { WireCatalog, WireEnvelope, WireEvent, WireSession } from './wire-types.ts';

/** What a folder backend reports to its owner. */
export interface FolderBackendHooks {
  output: vscode.OutputChannel;
  changed(backend: FolderBackend): void;
  event(backend: FolderBackend, event: WireEvent): void;
  ready(backend: FolderBackend): void;
}

/** A workspace folder's backend. */
export class FolderBackend {
  readonly folder: vscode.WorkspaceFolder;
  readonly #process: BackendProcess | undefined;
  state: BackendState;
  detail: string | undefined;
  restartInSeconds: number | undefined;
  catalog: WireCatalog | undefined;
  /** The session write runs are bound to (chosen in "Show Sessions"). */
  sessionId: string | undefined;

  constructor(folder: vscode.WorkspaceFolder, hooks: FolderBackendHooks) {
    this.folder = folder;
    const config = vscode.workspace.getConfiguration('dshLspActions', folder.uri);
    const resolved = resolveBackend({
      serverPath: config.get<string>('serverPath', ''),
      folder: folder.uri.fsPath,
      pathEnv: process.env['PATH'],
      isExecutable,
    });
    if ('missing' in resolved) {
      this.state = 'missing';
      this.detail = resolved.missing;
      hooks.output.appendLine(`[${folder.name}] ${resolved.missing}`);
      return;
    }
    this.state = 'stopped';
    const sandbox = config.get<string>('sandbox', 'workspace-write');
    hooks.output.appendLine(`[${folder.name}] backend: ${resolved.command} (from ${resolved.source})`);
    this.#process = new BackendProcess(
      { command: resolved.command, args: serveArgs(folder.uri.fsPath, sandbox), cwd: folder.uri.fsPath },
      {
        log: (line) => hooks.output.appendLine(`[${folder.name}] ${line}`),
        state: (state, detail) => {
          this.state = state;
          this.restartInSeconds = detail?.restartInSeconds;
          this.detail = detail?.message;
          hooks.changed(this);
        },
        event: (event) => {
          if (event.kind === 'sessions.changed') this.#forgetGoneSession();
          hooks.event(this, event);
        },
        ready: (catalog) => {
          this.catalog = catalog;
          this.#forgetGoneSession();
          hooks.ready(this);
        },
      },
    );
  }

  /** @returns the running backend's pid */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** @returns the live sessions */
  get sessions(): readonly WireSession[] {
    return this.#process?.sessions ?? [];
  }

  /** Starts the backend (if one was found). */
  start(): void {
    this.#process?.start();
  }

  /** Stops it (no language-server process is left). */
  async stop(): Promise<void> {
    await this.#process?.stop();
  }

  /** Restarts it now. */
  async restart(): Promise<void> {
    await this.#process?.restart();
  }

  /**
   * @param uri a file
   * @returns its path relative to this folder (the backend echoes it as sent)
   */
  relativePath(uri: vscode.Uri): string {
    return relative(this.folder.uri.fsPath, uri.fsPath);
  }

  /**
   * @param action the action id
   * @param params its params (without `workspaceRoot`, added here)
   * @param writes whether to bind the chosen session (write runs)
   * @returns the envelope
   */
  async run<T>(action: string, params: Record<string, unknown>, writes = false): Promise<WireEnvelope<T>> {
    if (this.#process === undefined) throw new Error(this.detail ?? 'no dsh-lsp-actions backend');
    return this.#process.run<T>(action, { ...params, workspaceRoot: this.folder.uri.fsPath }, writes ? this.sessionId : undefined);
  }

  #forgetGoneSession(): void {
    if (this.sessionId !== undefined && !this.sessions.some((s) => s.sessionId === this.sessionId)) this.sessionId = undefined;
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
