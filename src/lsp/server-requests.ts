/**
 * Answers to what a server asks the client (server → client requests) and the notifications
 * we listen to. Everything unknown is answered MethodNotFound, keeping the stream intact.
 */
import { basename } from 'node:path';
import { ResponseError, type MessageConnection } from 'vscode-jsonrpc';
import type {
  ApplyWorkspaceEditParams,
  ApplyWorkspaceEditResult,
  ConfigurationParams,
  PublishDiagnosticsParams,
  RegistrationParams,
  UnregistrationParams,
} from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import type { CapabilityRegistry } from './capability-registry.ts';
import type { EngineLog } from './json-rpc-connection.ts';
import type { ProgressTracker } from './progress-tracker.ts';
import { RPC_CODES } from './request-errors.ts';

/** The answer to a `workspace/applyEdit` that arrives while none of our commands runs. */
export const NO_APPLY_EDIT_ROUTE: ApplyWorkspaceEditResult = {
  applied: false,
  failureReason:
    'dsh-lsp-actions applies server edits only while one of its workspace/executeCommand calls runs on this server; none is running',
};

/** What the handlers need from their client. */
export interface ServerRequestHost {
  serverId: string;
  root: string;
  /** The server entry's `configuration` table. */
  configuration: Record<string, unknown>;
  registry: CapabilityRegistry;
  progress: ProgressTracker;
  log: EngineLog;
  /** `workspace/diagnostic/refresh`. */
  onRefresh(): void;
  /** `textDocument/publishDiagnostics`. */
  onPublishDiagnostics(params: PublishDiagnosticsParams): void;
  /** `workspace/applyEdit`, routed to the running executeCommand (or refused). */
  applyEdit(params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult>;
}

/**
 * Looks up a `workspace/configuration` section: `""`/missing → the whole object; an exact key
 * (dots included) wins; otherwise a dotted path is walked; unknown → `null`.
 * @param settings the server's configuration table
 * @param section the requested section
 * @returns the value to answer with
 */
export function lookupConfiguration(settings: Record<string, unknown>, section: string | null | undefined): unknown {
  if (section === undefined || section === null || section === '') return settings;
  if (Object.hasOwn(settings, section)) return settings[section];
  let current: unknown = settings;
  for (const part of section.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, part)) return null;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * Installs every server → client handler on a connection (before `listen()`).
 * @param connection the protocol connection
 * @param host the client side the handlers act on
 */
export function installServerRequestHandlers(connection: MessageConnection, host: ServerRequestHost): void {
  const { log, serverId } = host;
  connection.onRequest('workspace/configuration', (params: ConfigurationParams) =>
    (params?.items ?? []).map((item) => lookupConfiguration(host.configuration, item.section)),
  );
  connection.onRequest('client/registerCapability', (params: RegistrationParams) => {
    host.registry.register(params?.registrations ?? []);
    log('debug', `${serverId}: registered ${(params?.registrations ?? []).map((r) => r.method).join(', ')}`);
    return null;
  });
  connection.onRequest('client/unregisterCapability', (params: UnregistrationParams) => {
    host.registry.unregister(params?.unregisterations ?? []);
    return null;
  });
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onUnhandledProgress((params) => host.progress.update(params.token, params.value));
  connection.onRequest('workspace/diagnostic/refresh', () => {
    host.onRefresh();
    return null;
  });
  connection.onRequest('workspace/workspaceFolders', () => [{ uri: URI.file(host.root).toString(), name: basename(host.root) }]);
  connection.onRequest('workspace/applyEdit', (params: ApplyWorkspaceEditParams) => host.applyEdit(params));
  // Known requests with a harmless "nothing to do" answer.
  connection.onRequest('window/showMessageRequest', () => null);
  connection.onRequest('window/showDocument', () => ({ success: false }));
  for (const method of ['workspace/semanticTokens/refresh', 'workspace/inlayHint/refresh', 'workspace/codeLens/refresh', 'workspace/inlineValue/refresh']) {
    connection.onRequest(method, () => null);
  }
  connection.onRequest((method: string) => {
    log('debug', `${serverId}: unsupported server request ${method}`);
    return new ResponseError(RPC_CODES.MethodNotFound, `Unhandled method ${method}`);
  });

  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => host.onPublishDiagnostics(params));
  connection.onNotification('window/logMessage', (params: { type?: number; message?: string }) => {
    log('debug', `${serverId}: ${params?.message ?? ''}`);
  });
  connection.onNotification('window/showMessage', (params: { type?: number; message?: string }) => {
    log(params?.type === 1 ? 'warn' : 'info', `${serverId}: ${params?.message ?? ''}`);
  });
  connection.onNotification(() => {
    // other notifications ($/typescriptVersion, telemetry/event, $/logTrace …) carry nothing we use
  });
}
