/**
 * The engine's request methods (everything but diagnostics): build LSP params in the server's
 * encoding, fail fast when no routed server advertises the method, send, normalise.
 */
import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult } from 'vscode-languageserver-protocol';
import type { Config } from '../config.ts';
import { TextLines } from '../documents/position-encoding.ts';
import { ActionError, isActionError } from '../errors.ts';
import type { DiagnosticsCollector } from './diagnostics-collector.ts';
import type {
  ApplyEditHandler,
  CallHierarchyResult,
  CodeActionItem,
  CodeActionServer,
  CompletionItemInfo,
  CompletionResult,
  DocumentTarget,
  EditBasis,
  FileLocation,
  HoverResult,
  InlayHintInfo,
  LspCommand,
  NormalizedWorkspaceEdit,
  Position,
  Range,
  SignatureHelpResult,
  SymbolNode,
  TextEdit,
} from './engine-types.ts';
import type { LanguageClient } from './language-client.ts';
import { isObject, readRange } from './normalize-common.ts';
import { normalizeCodeAction, normalizeCodeActions } from './normalize-code-actions.ts';
import { normalizeCompletion, normalizeCompletionItem } from './normalize-completion.ts';
import { normalizeCalls, normalizePreparedItems } from './normalize-call-hierarchy.ts';
import { normalizeLocations } from './normalize-locations.ts';
import { normalizeHover, normalizeInlayHints, normalizeSignatureHelp } from './normalize-markup.ts';
import { normalizeDocumentSymbols, normalizeWorkspaceSymbols } from './normalize-symbols.ts';
import { normalizeTextEdits, normalizeWorkspaceEdit } from './normalize-workspace-edit.ts';
import type { ServerSessions, Session } from './server-sessions.ts';
import { raceAbort } from '../race-abort.ts';

const textDocument = (s: Session): { uri: string } => ({ uri: s.doc.uri });

/** Request methods over {@link ServerSessions}. */
export class EngineRequests {
  private readonly sessions: ServerSessions;
  private readonly config: Config;
  private readonly collectorOf: (client: LanguageClient) => DiagnosticsCollector | undefined;
  /** Per server, the settling of its last `workspace/executeCommand` (see {@link executeCommand}). */
  private readonly commandTails = new WeakMap<LanguageClient, Promise<void>>();

  /**
   * @param sessions shared plumbing
   * @param config plugin config (formatting options)
   * @param collectorOf a client's diagnostics collector (code action context)
   */
  constructor(sessions: ServerSessions, config: Config, collectorOf: (client: LanguageClient) => DiagnosticsCollector | undefined) {
    this.sessions = sessions;
    this.config = config;
    this.collectorOf = collectorOf;
  }

  private at(s: Session, position: Position): { textDocument: { uri: string }; position: Position } {
    return { textDocument: textDocument(s), position: this.sessions.toServer(s, position) };
  }

  /** @returns completion of the first server advertising it */
  completion(target: DocumentTarget, position: Position, signal?: AbortSignal): Promise<CompletionResult> {
    return this.sessions.first(target, 'textDocument/completion', signal, async (s) => {
      const raw = await s.client.request('textDocument/completion', { ...this.at(s, position), context: { triggerKind: 1 } }, signal);
      return this.sessions.normalizeLocal(s, (ctx) => normalizeCompletion(ctx, raw, s.doc.path));
    });
  }

  /** @returns the item resolved by the server that produced it (unchanged when it cannot resolve) */
  resolveCompletion(target: DocumentTarget, item: CompletionItemInfo, signal?: AbortSignal): Promise<CompletionItemInfo> {
    return this.onServer(target, item.serverId, signal, async (s) => {
      if (!s.client.registry.has('completionItem/resolve')) return item;
      const raw = await s.client.request('completionItem/resolve', item.raw, signal);
      return this.sessions.normalizeLocal(s, (ctx) => normalizeCompletionItem(ctx, raw, s.doc.path));
    });
  }

  /** @returns code actions of every routed server advertising them, merged in routing order */
  async codeActions(target: DocumentTarget, range: Range, only: string[] | undefined, signal?: AbortSignal): Promise<CodeActionItem[]> {
    const outcomes = await this.sessions.each(target, 'textDocument/codeAction', signal, async (s) => {
      await this.collectorOf(s.client)?.serverViewSettled(s.doc.path, s.doc.version, signal);
      const serverRange = this.sessions.rangeToServer(s, range);
      const context: Record<string, unknown> = {
        diagnostics: this.collectorOf(s.client)?.contextDiagnostics(s.doc.path, serverRange) ?? [],
        triggerKind: 1,
      };
      if (only !== undefined) context.only = only;
      const basis = this.basisOf(s);
      const raw = await s.client.request('textDocument/codeAction', { textDocument: textDocument(s), range: serverRange, context }, signal);
      const resolvable = s.client.registry.has('codeAction/resolve');
      const items = await this.sessions.normalizeAcross(s.client, (ctx) => normalizeCodeActions(ctx, raw, s.doc.path, resolvable));
      return items.map((item) => ({ ...item, basis }));
    });
    return mergeOrThrow(outcomes);
  }

  /** @returns per server offering code actions, the kinds it advertises (undefined when unlisted) */
  async codeActionKinds(target: DocumentTarget, signal?: AbortSignal): Promise<CodeActionServer[]> {
    const outcomes = await this.sessions.each(target, 'textDocument/codeAction', signal, async (s) => {
      const kinds = s.client.registry.options('textDocument/codeAction')?.['codeActionKinds'];
      const listed = Array.isArray(kinds) ? kinds.filter((kind): kind is string => typeof kind === 'string') : undefined;
      const info = s.client.serverInfo;
      return [{ serverId: s.client.serverId, ...(listed ? { kinds: listed } : {}), ...(info ? { serverInfo: { ...info } } : {}) }];
    });
    return mergeOrThrow(outcomes);
  }

  /** @returns the action after `codeAction/resolve` (unchanged when the server cannot resolve) */
  resolveCodeAction(target: DocumentTarget, item: CodeActionItem, signal?: AbortSignal): Promise<CodeActionItem> {
    return this.onServer(target, item.serverId, signal, async (s) => {
      if (!s.client.registry.has('codeAction/resolve') || !isObject(item.raw) || typeof item.raw.command === 'string') return item;
      const basis = this.basisOf(s);
      const raw = await s.client.request('codeAction/resolve', item.raw, signal);
      const resolved = await this.sessions.normalizeAcross(s.client, (ctx) => normalizeCodeAction(ctx, raw, s.doc.path, false));
      return { ...resolved, needsResolve: false, basis };
    });
  }

  /**
   * One `workspace/executeCommand` at a time per server: `workspace/applyEdit` carries no link to
   * the command that caused it, so serialising is what binds each edit to its command (and its
   * write permission). The call settles only after every edit it routed has finished writing
   * (or rolling back), so a cancel's answer never overtakes a write.
   * @returns the command's result; server edits meanwhile go to `applyEdit`, with the text the
   *   server had of the document when the command was sent as their basis
   */
  executeCommand(target: DocumentTarget, serverId: string, command: LspCommand, applyEdit: ApplyEditHandler, signal?: AbortSignal): Promise<unknown> {
    return this.onServer(target, serverId, signal, async (s) => {
      const registry = s.client.registry;
      if (!registry.has('workspace/executeCommand')) {
        throw new ActionError('LSP_ACTION_UNSUPPORTED', `${serverId} does not support workspace/executeCommand`, { serverId });
      }
      const known = registry.commands;
      if (known.length > 0 && !known.includes(command.command)) {
        throw new ActionError('LSP_ACTION_UNSUPPORTED', `${serverId} does not list the command ${command.command}`, { serverId, command: command.command });
      }
      return this.oneCommandAt(s.client, signal, async () => {
        const basis = this.basisOf(s);
        const writing = new Set<Promise<ApplyWorkspaceEditResult>>();
        const apply = async (params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> => {
          try {
            const edit = await this.sessions.normalizeAcross(s.client, (ctx) => normalizeWorkspaceEdit(ctx, params?.edit, 'workspace/applyEdit edit'));
            return await applyEdit(edit, params?.label === undefined ? { serverId, basis } : { serverId, label: params.label, basis });
          } catch (error) {
            return { applied: false, failureReason: error instanceof Error ? error.message : String(error) };
          }
        };
        const route = (params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> => {
          const done = apply(params);
          writing.add(done);
          void done.finally(() => writing.delete(done));
          return done;
        };
        const params = command.arguments === undefined ? { command: command.command } : { command: command.command, arguments: command.arguments };
        try {
          return await s.client.withApplyEditRoute(route, () => s.client.request('workspace/executeCommand', params, signal));
        } finally {
          await Promise.allSettled(writing);
        }
      });
    });
  }

  /** Runs `fn` once the server's previous command (if any) has settled; an abort while waiting rejects. */
  private async oneCommandAt<T>(client: LanguageClient, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    const previous = this.commandTails.get(client) ?? Promise.resolve();
    const gate = openGate();
    const mine = gate.closed;
    const release = gate.open;
    const tail = previous.then(() => mine);
    this.commandTails.set(client, tail);
    try {
      await raceAbort(previous, signal);
      return await fn();
    } finally {
      release();
      if (this.commandTails.get(client) === tail) this.commandTails.delete(client);
    }
  }

  /** @returns formatting edits of the first server advertising (range) formatting */
  format(target: DocumentTarget, range: Range | undefined, signal?: AbortSignal): Promise<{ serverId: string; edits: TextEdit[]; basis: EditBasis }> {
    const method = range === undefined ? 'textDocument/formatting' : 'textDocument/rangeFormatting';
    return this.sessions.first(target, method, signal, async (s) => {
      const options = { ...this.config.servers[s.route.serverId]?.formattingOptions };
      const params: Record<string, unknown> = { textDocument: textDocument(s), options };
      if (range !== undefined) params.range = this.sessions.rangeToServer(s, range);
      const basis = this.basisOf(s);
      const raw = await s.client.request(method, params, signal);
      return { serverId: s.route.serverId, edits: this.sessions.normalizeLocal(s, (ctx) => normalizeTextEdits(ctx, raw, s.doc.path, method)), basis };
    });
  }

  /** @returns where a rename would apply, `null` when nothing can be renamed there */
  prepareRename(target: DocumentTarget, position: Position, signal?: AbortSignal): Promise<{ serverId: string; range?: Range; placeholder?: string } | null> {
    return this.sessions.first(target, 'textDocument/rename', signal, async (s) => {
      const serverId = s.route.serverId;
      if (!s.client.registry.has('textDocument/prepareRename')) return { serverId };
      const raw = await s.client.request('textDocument/prepareRename', this.at(s, position), signal);
      if (raw === null || raw === undefined) return null;
      return this.sessions.normalizeLocal(s, (ctx) => {
        if (isObject(raw) && 'defaultBehavior' in raw) return raw.defaultBehavior === true ? { serverId } : null;
        if (isObject(raw) && 'range' in raw) {
          const out: { serverId: string; range: Range; placeholder?: string } = { serverId, range: readRange(ctx, raw.range, s.doc.path, 'prepareRename.range') };
          if (typeof raw.placeholder === 'string') out.placeholder = raw.placeholder;
          return out;
        }
        return { serverId, range: readRange(ctx, raw, s.doc.path, 'prepareRename') };
      });
    });
  }

  /** @returns the rename's workspace edit */
  rename(target: DocumentTarget, position: Position, newName: string, signal?: AbortSignal): Promise<{ serverId: string; edit: NormalizedWorkspaceEdit; basis: EditBasis }> {
    return this.sessions.first(target, 'textDocument/rename', signal, async (s) => {
      const basis = this.basisOf(s);
      const raw = await s.client.request('textDocument/rename', { ...this.at(s, position), newName }, signal);
      return { serverId: s.route.serverId, edit: await this.sessions.normalizeAcross(s.client, (ctx) => normalizeWorkspaceEdit(ctx, raw, 'rename')), basis };
    });
  }

  /** @returns the document's outline */
  documentSymbols(target: DocumentTarget, signal?: AbortSignal): Promise<{ serverId: string; symbols: SymbolNode[] }> {
    return this.sessions.first(target, 'textDocument/documentSymbol', signal, async (s) => {
      const raw = await s.client.request('textDocument/documentSymbol', { textDocument: textDocument(s) }, signal);
      return { serverId: s.route.serverId, symbols: await this.sessions.normalizeAcross(s.client, (ctx) => normalizeDocumentSymbols(ctx, raw, s.doc.path)) };
    });
  }

  /** @returns workspace symbols from the anchor's servers, or every live server under `root` */
  async workspaceSymbols(
    root: string,
    query: string,
    anchorPath: string | undefined,
    liveClients: (root: string) => LanguageClient[],
    signal?: AbortSignal,
  ): Promise<SymbolNode[]> {
    const ask = async (client: LanguageClient): Promise<SymbolNode[]> => {
      const raw = await client.request('workspace/symbol', { query }, signal);
      return this.sessions.normalizeAcross(client, (ctx) => normalizeWorkspaceSymbols(ctx, raw));
    };
    if (anchorPath !== undefined) {
      const outcomes = await this.sessions.each({ root, path: anchorPath }, 'workspace/symbol', signal, (s) => ask(s.client));
      return mergeOrThrow(outcomes);
    }
    const clients = liveClients(root).filter((c) => c.registry.has('workspace/symbol'));
    const results = await Promise.all(clients.map((c) => ask(c).catch((error: unknown) => (isActionError(error) && !signal?.aborted ? [] : Promise.reject(error)))));
    return results.flat();
  }

  /** @returns signature help of the first server advertising it */
  signatureHelp(target: DocumentTarget, position: Position, signal?: AbortSignal): Promise<SignatureHelpResult | null> {
    return this.sessions.first(target, 'textDocument/signatureHelp', signal, async (s) => {
      const raw = await s.client.request('textDocument/signatureHelp', { ...this.at(s, position), context: { triggerKind: 1, isRetrigger: false } }, signal);
      return this.sessions.normalizeLocal(s, (ctx) => normalizeSignatureHelp(ctx, raw));
    });
  }

  /** @returns inlay hints for `range` (default: the whole document) */
  inlayHints(target: DocumentTarget, range: Range | undefined, signal?: AbortSignal): Promise<{ serverId: string; hints: InlayHintInfo[] }> {
    return this.sessions.first(target, 'textDocument/inlayHint', signal, async (s) => {
      const whole = { start: { line: 0, character: 0 }, end: new TextLines(s.doc.text).positionAt(s.doc.text.length) };
      const raw = await s.client.request('textDocument/inlayHint', { textDocument: textDocument(s), range: this.sessions.rangeToServer(s, range ?? whole) }, signal);
      return { serverId: s.route.serverId, hints: this.sessions.normalizeLocal(s, (ctx) => normalizeInlayHints(ctx, raw, s.doc.path)) };
    });
  }

  /** @returns hover of the first server advertising it */
  hover(target: DocumentTarget, position: Position, signal?: AbortSignal): Promise<HoverResult | null> {
    return this.sessions.first(target, 'textDocument/hover', signal, async (s) => {
      const raw = await s.client.request('textDocument/hover', this.at(s, position), signal);
      return this.sessions.normalizeLocal(s, (ctx) => normalizeHover(ctx, raw, s.doc.path));
    });
  }

  /** @returns definition locations */
  definition(target: DocumentTarget, position: Position, signal?: AbortSignal): Promise<FileLocation[]> {
    return this.sessions.first(target, 'textDocument/definition', signal, async (s) => {
      const raw = await s.client.request('textDocument/definition', this.at(s, position), signal);
      return this.sessions.normalizeAcross(s.client, (ctx) => normalizeLocations(ctx, raw, 'definition'));
    });
  }

  /** @returns reference locations */
  references(target: DocumentTarget, position: Position, includeDeclaration: boolean, signal?: AbortSignal): Promise<FileLocation[]> {
    return this.sessions.first(target, 'textDocument/references', signal, async (s) => {
      const raw = await s.client.request('textDocument/references', { ...this.at(s, position), context: { includeDeclaration } }, signal);
      return this.sessions.normalizeAcross(s.client, (ctx) => normalizeLocations(ctx, raw, 'references'));
    });
  }

  /** @returns implementation locations */
  implementation(target: DocumentTarget, position: Position, signal?: AbortSignal): Promise<FileLocation[]> {
    return this.sessions.first(target, 'textDocument/implementation', signal, async (s) => {
      const raw = await s.client.request('textDocument/implementation', this.at(s, position), signal);
      return this.sessions.normalizeAcross(s.client, (ctx) => normalizeLocations(ctx, raw, 'implementation'));
    });
  }

  /** @returns the items prepared at the position and their incoming or outgoing calls, all on one server */
  callHierarchy(target: DocumentTarget, position: Position, direction: 'incoming' | 'outgoing', signal?: AbortSignal): Promise<CallHierarchyResult> {
    return this.sessions.first(target, 'textDocument/prepareCallHierarchy', signal, async (s) => {
      const serverId = s.route.serverId;
      const prepared = await s.client.request('textDocument/prepareCallHierarchy', this.at(s, position), signal);
      const items = await this.sessions.normalizeAcross(s.client, (ctx) => normalizePreparedItems(ctx, prepared));
      const method = direction === 'incoming' ? 'callHierarchy/incomingCalls' : 'callHierarchy/outgoingCalls';
      const edges = [];
      for (const item of items) {
        const raw = await s.client.request(method, { item: item.raw }, signal);
        edges.push(...(await this.sessions.normalizeAcross(s.client, (ctx) => normalizeCalls(ctx, raw, direction, item.node.path))));
      }
      return { serverId, direction, items: items.map((item) => item.node), edges };
    });
  }

  private onServer<T>(target: DocumentTarget, serverId: string, signal: AbortSignal | undefined, fn: (s: Session) => Promise<T>): Promise<T> {
    const route = this.sessions.routes(target).find((r) => r.serverId === serverId);
    if (route === undefined) throw new ActionError('LSP_ACTION_UNAVAILABLE', `${serverId} does not handle ${target.path}`, { serverId });
    return this.sessions.with(target, route, signal, fn);
  }

  /**
   * @param s a session, just before its request is sent
   * @returns the text and version the server has of the document, and of every other document
   *   open on it (copied: the session's document object is updated in place by later syncs)
   */
  private basisOf(s: Session): EditBasis {
    return { path: s.doc.path, version: s.doc.version, text: s.doc.text, others: this.sessions.openTexts(s.client, s.doc.path) };
  }
}

function mergeOrThrow<T>(outcomes: Array<{ value?: T[]; error?: ActionError }>): T[] {
  const ok = outcomes.filter((o) => o.error === undefined);
  const firstError = outcomes.find((o) => o.error !== undefined)?.error;
  if (ok.length === 0 && firstError !== undefined) throw firstError;
  return ok.flatMap((o) => o.value ?? []);
}

/** @returns a promise (`closed`) that resolves when `open` is called */
function openGate(): { closed: Promise<void>; open: () => void } {
  const gate: { closed?: Promise<void>; open: () => void } = { open: () => undefined };
  gate.closed = new Promise<void>((resolve) => {
    gate.open = resolve;
  });
  return gate as { closed: Promise<void>; open: () => void };
}
