/**
 * The backend of one workspace folder, as the rest of the extension sees it: its lifecycle
 * state, its live sessions and the session chosen for writes, and `run` with workspace-relative
 * paths. Resolves the executable (User-settings `serverPath` → the folder's node_modules/.bin,
 * once the user allowed it → PATH) and spawns
 * `dsh-lsp-actions serve --workspace <folder> --sandbox <mode>`.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { relative } from 'node:path';
import * as vscode from 'vscode';
import { BackendProcess } from './backend-process.ts';
import { resolveBackend, serveArgs, type BackendSource } from './backend-resolution.ts';
import type { StartFailure } from './start-failure.ts';
import type { BackendState } from './status-text.ts';
import type { WireCatalog, WireEnvelope, WireEvent, WireSession } from './wire-types.ts';

/** What a folder backend reports to its owner. */
export interface FolderBackendHooks {
  output: vscode.OutputChannel;
  changed(backend: FolderBackend): void;
  event(backend: FolderBackend, event: WireEvent, epoch: number): void;
  ready(backend: FolderBackend): void;
  /** A new process is starting: everything the previous one said is from an older epoch. */
  restarting(backend: FolderBackend): void;
  /** No executable was found (or the folder's own was not allowed and there is no other). */
  missing(backend: FolderBackend, detail: string): void;
  /** The backend gave up after repeated failed starts or exits. */
  failed(backend: FolderBackend, failure: StartFailure): void;
  /** An action was sent to the backend. */
  ran(action: string): void;
  /** Asks (once per folder) whether the folder's own node_modules/.bin backend may run. */
  allowWorkspaceBackend(folder: vscode.WorkspaceFolder, command: string): Promise<boolean>;
}

/** The `serverPath` from the User settings only: the setting is machine-scoped, never a folder's. */
export function userServerPath(): string {
  const inspected = vscode.workspace.getConfiguration('dshLspActions').inspect<string>('serverPath');
  return inspected?.globalValue ?? '';
}

/** A workspace folder's backend. */
export class FolderBackend {
  readonly folder: vscode.WorkspaceFolder;
  readonly #hooks: FolderBackendHooks;
  #process: BackendProcess | undefined;
  #starting: Promise<void> | undefined;
  #stopped = false;
  state: BackendState = 'stopped';
  detail: string | undefined;
  restartInSeconds: number | undefined;
  catalog: WireCatalog | undefined;
  /** The folder's own executable, when it was not allowed to run. */
  deniedCommand: string | undefined;
  /** Where the executable came from, once resolved. */
  source: BackendSource | undefined;
  /** The session write runs are bound to (chosen in "Show Sessions"). */
  sessionId: string | undefined;

  constructor(folder: vscode.WorkspaceFolder, hooks: FolderBackendHooks) {
    this.folder = folder;
    this.#hooks = hooks;
  }

  /** @returns the current process's epoch (0 before the first start; unique per process) */
  get epoch(): number {
    return this.#process?.epoch ?? 0;
  }

  /** @returns how many backend processes were started for this folder */
  get attempts(): number {
    return this.#process?.attempts ?? 0;
  }

  /** @returns why the backend gave up, if it did */
  get failure(): StartFailure | undefined {
    return this.#process?.failure;
  }

  async #resolveAndStart(): Promise<void> {
    const { folder } = this;
    const log = (line: string): void => this.#hooks.output.appendLine(`[${folder.name}] ${line}`);
    const input = { serverPath: userServerPath(), folder: folder.uri.fsPath, pathEnv: process.env['PATH'], isExecutable };
    let resolved = resolveBackend(input);
    if (!('missing' in resolved) && resolved.source === 'workspace') this.#set('asking', resolved.command);
    if (!('missing' in resolved) && resolved.source === 'workspace' && !(await this.#hooks.allowWorkspaceBackend(folder, resolved.command))) {
      log(`${resolved.command} is the folder's own backend and was not allowed to run`);
      this.deniedCommand = resolved.command;
      resolved = resolveBackend({ ...input, allowWorkspace: false });
      if ('missing' in resolved) {
        this.#set('untrusted', resolved.missing);
        return;
      }
    }
    if (this.#stopped) {
      this.#set('stopped', 'stopped before it started');
      return;
    }
    if ('missing' in resolved) {
      log(resolved.missing);
      this.#set('missing', resolved.missing);
      this.#hooks.missing(this, resolved.missing);
      return;
    }
    this.source = resolved.source;
    const sandbox = vscode.workspace.getConfiguration('dshLspActions', folder.uri).get<string>('sandbox', 'workspace-write');
    log(`backend: ${resolved.command} (from ${resolved.source})`);
    this.#process = new BackendProcess(
      { command: resolved.command, args: serveArgs(folder.uri.fsPath, sandbox), cwd: folder.uri.fsPath },
      {
        log,
        state: (state, detail) => {
          if (state === 'starting') this.#hooks.restarting(this);
          this.state = state;
          this.restartInSeconds = detail?.restartInSeconds;
          this.detail = detail?.message;
          this.#hooks.changed(this);
        },
        event: (event, epoch) => {
          if (event.kind === 'sessions.changed') this.#forgetGoneSession();
          this.#hooks.event(this, event, epoch);
        },
        ready: (catalog) => {
          this.catalog = catalog;
          this.#forgetGoneSession();
          this.#hooks.ready(this);
        },
        failed: (failure) => this.#hooks.failed(this, failure),
      },
    );
    this.#process.start();
  }

  #set(state: BackendState, detail: string): void {
    this.state = state;
    this.detail = detail;
    this.#hooks.changed(this);
  }

  /** @returns the running backend's pid */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** @returns the live sessions */
  get sessions(): readonly WireSession[] {
    return this.#process?.sessions ?? [];
  }

  /** Resolves the executable (asking, for the folder's own) and starts it; once. */
  start(): Promise<void> {
    this.#starting ??= this.#resolveAndStart().catch((error: unknown) => {
      this.#set('failed', (error as Error).message);
    });
    return this.#starting;
  }

  /** Stops it (no language-server process is left). */
  async stop(): Promise<void> {
    this.#stopped = true;
    // An open trust question may stay unanswered: stopping does not wait for it (the start
    // checks #stopped once it is answered and then starts nothing).
    if (this.state !== 'asking') await this.#starting;
    await this.#process?.stop();
  }

  /** Restarts it now (a backend that gave up is tried again); nothing while the user is asked. */
  async restart(): Promise<void> {
    if (this.state === 'asking') return;
    await this.#starting;
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
    if (this.#process === undefined) throw new Error(this.detail ?? 'the dsh-lsp-actions backend has not started');
    this.#hooks.ran(action);
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
