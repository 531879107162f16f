/**
 * What one server can do: its static `initialize` capabilities plus whatever it registered
 * dynamically (`client/registerCapability`), minus what it unregistered. Requests for a method
 * neither advertises fail fast (Helix-style) instead of being sent.
 */
import { Emitter, type Event } from 'vscode-jsonrpc';
import type { Registration, ServerCapabilities, Unregistration } from 'vscode-languageserver-protocol';

/** Request method → static capability key (and sub-key for resolve/prepare variants). */
const STATIC_KEYS: Record<string, { key: keyof ServerCapabilities; sub?: string; parent?: string }> = {
  'textDocument/completion': { key: 'completionProvider' },
  'completionItem/resolve': { key: 'completionProvider', sub: 'resolveProvider', parent: 'textDocument/completion' },
  'textDocument/hover': { key: 'hoverProvider' },
  'textDocument/signatureHelp': { key: 'signatureHelpProvider' },
  'textDocument/definition': { key: 'definitionProvider' },
  'textDocument/references': { key: 'referencesProvider' },
  'textDocument/implementation': { key: 'implementationProvider' },
  'textDocument/prepareCallHierarchy': { key: 'callHierarchyProvider' },
  'callHierarchy/incomingCalls': { key: 'callHierarchyProvider' },
  'callHierarchy/outgoingCalls': { key: 'callHierarchyProvider' },
  'textDocument/documentSymbol': { key: 'documentSymbolProvider' },
  'textDocument/foldingRange': { key: 'foldingRangeProvider' },
  'workspace/symbol': { key: 'workspaceSymbolProvider' },
  'textDocument/codeAction': { key: 'codeActionProvider' },
  'codeAction/resolve': { key: 'codeActionProvider', sub: 'resolveProvider', parent: 'textDocument/codeAction' },
  'textDocument/formatting': { key: 'documentFormattingProvider' },
  'textDocument/rangeFormatting': { key: 'documentRangeFormattingProvider' },
  'textDocument/rename': { key: 'renameProvider' },
  'textDocument/prepareRename': { key: 'renameProvider', sub: 'prepareProvider', parent: 'textDocument/rename' },
  'textDocument/inlayHint': { key: 'inlayHintProvider' },
  'textDocument/diagnostic': { key: 'diagnosticProvider' },
  'workspace/executeCommand': { key: 'executeCommandProvider' },
};

/** `TextDocumentSyncKind`: 0 none, 1 full, 2 incremental. */
export type SyncKind = 0 | 1 | 2;

/** Static plus dynamic capabilities of one server. */
export class CapabilityRegistry {
  /** The `initialize` result's capabilities, as sent (empty until the server answered). */
  capabilities: ServerCapabilities;
  private readonly dynamic = new Map<string, Registration>();
  private readonly changed = new Emitter<string>();

  /** @param capabilities the server's `initialize` result capabilities, when known */
  constructor(capabilities: ServerCapabilities = {}) {
    this.capabilities = capabilities;
  }

  /** Fires with the method whose registration changed. */
  get onDidChange(): Event<string> {
    return this.changed.event;
  }

  /** @param registrations from `client/registerCapability` */
  register(registrations: readonly Registration[]): void {
    for (const registration of registrations) {
      this.dynamic.set(registration.id, registration);
      this.changed.fire(registration.method);
    }
  }

  /** @param unregistrations from `client/unregisterCapability` */
  unregister(unregistrations: readonly Unregistration[]): void {
    for (const unregistration of unregistrations) {
      const known = this.dynamic.get(unregistration.id);
      this.dynamic.delete(unregistration.id);
      this.changed.fire(known?.method ?? unregistration.method);
    }
  }

  /**
   * @param method an LSP method
   * @returns the live dynamic registrations for it
   */
  registrations(method: string): Registration[] {
    return [...this.dynamic.values()].filter((r) => r.method === method);
  }

  /**
   * @param method a request method such as `textDocument/formatting` or `codeAction/resolve`
   * @returns whether the server advertises it, statically or through a live registration
   */
  has(method: string): boolean {
    const entry = STATIC_KEYS[method];
    if (entry === undefined) return this.registrations(method).length > 0;
    const value = this.capabilities[entry.key] as unknown;
    if (entry.sub !== undefined) {
      const fromStatic = typeof value === 'object' && value !== null && (value as Record<string, unknown>)[entry.sub] === true;
      const fromDynamic = this.registrations(entry.parent ?? '').some(
        (r) => (r.registerOptions as Record<string, unknown> | undefined)?.[entry.sub ?? ''] === true,
      );
      return fromStatic || fromDynamic;
    }
    return (value !== undefined && value !== null && value !== false) || this.registrations(method).length > 0;
  }

  /**
   * @param method a request method
   * @returns the static provider options (an object) or the first registration's options
   */
  options(method: string): Record<string, unknown> | undefined {
    const entry = STATIC_KEYS[method];
    const value = entry === undefined ? undefined : (this.capabilities[entry.key] as unknown);
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
    const registered = this.registrations(method)[0]?.registerOptions;
    return typeof registered === 'object' && registered !== null ? (registered as Record<string, unknown>) : undefined;
  }

  /** @returns whether the server offers pull diagnostics right now (static or registered) */
  get pullDiagnostics(): boolean {
    return this.has('textDocument/diagnostic');
  }

  /** @returns the pull `identifier`, when the server gave one */
  get pullIdentifier(): string | undefined {
    const id = this.options('textDocument/diagnostic')?.identifier;
    return typeof id === 'string' ? id : undefined;
  }

  /** @returns how the server wants document changes (`textDocumentSync.change`) */
  get syncKind(): SyncKind {
    const sync = this.capabilities.textDocumentSync as unknown;
    const kind = typeof sync === 'number' ? sync : (sync as { change?: unknown } | undefined)?.change;
    return kind === 0 || kind === 1 || kind === 2 ? kind : 0;
  }

  /** @returns commands the server executes (`executeCommandProvider.commands` plus registrations) */
  get commands(): string[] {
    const fromStatic = (this.capabilities.executeCommandProvider?.commands ?? []).slice();
    for (const r of this.registrations('workspace/executeCommand')) {
      const commands = (r.registerOptions as { commands?: unknown } | undefined)?.commands;
      if (Array.isArray(commands)) fromStatic.push(...commands.filter((c): c is string => typeof c === 'string'));
    }
    return fromStatic;
  }
}
