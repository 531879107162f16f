/**
 * An LSP server made of tsserver itself: the part of typescript-language-server that `check`
 * uses, in our own process, so that `check` runs one TypeScript process instead of two (the
 * middle one cost ~73 MiB; see docs/decisions/0111-check-drives-tsserver-directly.md).
 *
 * The client side is a pair of streams carrying LSP's base protocol (the language client's
 * channel is unchanged); the server side is tsserver's stdio protocol (one JSON request per
 * line in, `Content-Length`-framed answers and events out), which every tsserver from 4.0 to
 * 6.x speaks. What is served:
 * - `initialize` (advertising full document sync and the `typescript.tsserverRequest` command),
 *   `shutdown`, `exit`;
 * - `didOpen`/`didChange`/`didClose` → tsserver `updateOpen`, with the workspace root as the
 *   project root, as typescript-language-server sends them;
 * - `workspace/executeCommand` `typescript.tsserverRequest` → the tsserver request, answered
 *   as that server answers it: the whole response on success, `{type: 'noContent'}` for "No
 *   content available.", otherwise an error whose message carries tsserver's;
 * - diagnostics pushed for open files from tsserver's `geterr` events (the fallback when the
 *   passthrough fails), converted as that server converts them (src/lsp/tsserver-pushes.ts).
 * Every other request is answered MethodNotFound.
 */
import { PassThrough, Writable } from 'node:stream';
import { URI } from 'vscode-uri';
import { ContentLengthSplitter, frameMessage } from './content-length-splitter.ts';
import { isObject } from './normalize-common.ts';
import { TSSERVER_REQUEST_COMMAND } from './tsserver-diagnostics.ts';
import { TsserverPushes } from './tsserver-pushes.ts';
import { configureArguments, inferredProjectOptions, scriptKindName, type ImplicitProjectConfiguration } from './tsserver-host-settings.ts';

/** tsserver's pipes as spawned. */
export interface TsserverPipes {
  stdin: Writable;
  stdout: NodeJS.ReadableStream;
}

/** The LSP side: what the language client writes to and reads from. */
export interface LspPipes {
  stdin: Writable;
  stdout: PassThrough;
}

/** How the bridge runs. */
export interface TsserverBridgeOptions {
  /** The workspace root (tsserver's `projectRootPath` for opened files). */
  root: string;
  /** Largest message accepted from either side. */
  maxMessageBytes: number;
  /** Quiet time before open files' diagnostics are asked for a push (typescript-language-server waits too). */
  pushDelayMs?: number;
  /**
   * Ends the tsserver process at `exit`, as typescript-language-server kills its tsserver at
   * shutdown: tsserver reads `exit` only between steps of background work it may still be doing
   * (measured: ~3 s after the last answer of a `check` of rxjs), work nobody waits for.
   */
  terminate?: () => void;
  /** Text on tsserver's stdout outside its messages (a plugin's `console.log`), skipped. */
  onStray?: (text: string) => void;
}

type Id = number | string;
interface Message {
  id?: Id;
  method?: string;
  params?: unknown;
}

const METHOD_NOT_FOUND = -32601;
const REQUEST_CANCELLED = -32800;

/** tsserver's one-based end of an open document's text: what a whole-text change replaces. */
type TextEnd = { line: number; offset: number };

/**
 * @param text a document's text
 * @returns the one-based `{line, offset}` of its end as tsserver counts lines (it breaks lines at
 *   CR LF, CR, LF, U+2028 and U+2029; offsets are UTF-16 units)
 */
export function tsserverEndOf(text: string): { line: number; offset: number } {
  let line = 1;
  let lineStart = 0;
  for (const match of text.matchAll(/\r\n|[\n\r\u2028\u2029]/g)) {
    line++;
    lineStart = match.index + match[0].length;
  }
  return { line, offset: text.length - lineStart + 1 };
}

/**
 * @param response a tsserver response with `success: false`
 * @param version the TypeScript version, for the message
 * @returns the error message typescript-language-server gives for it
 */
export function tsserverErrorMessage(response: { message?: unknown }, version: string): string {
  const text = typeof response.message === 'string' ? response.message : '';
  const PREFIX = 'Error processing request. ';
  if (!text.startsWith(PREFIX)) return `<semantic> TypeScript Server Error (${version})\n${text}\nundefined`;
  const rest = text.slice(PREFIX.length);
  const newline = rest.indexOf('\n');
  return newline < 0 ? `<semantic> TypeScript Server Error (${version})\n${rest}\nundefined` : `<semantic> TypeScript Server Error (${version})\n${rest.slice(0, newline)}\n${rest.slice(newline + 1)}`;
}

/** The translation between one LSP client and one tsserver. */
export class TsserverBridge {
  /** The LSP side. */
  readonly lsp: LspPipes;
  private readonly server: TsserverPipes;
  private readonly options: Required<TsserverBridgeOptions>;
  private seq = 0;
  /** tsserver seq → the LSP request it answers. */
  private readonly waiting = new Map<number, Id>();
  private readonly byId = new Map<Id, number>();
  private readonly open = new Map<string, TextEnd>();
  private readonly pushes: TsserverPushes;
  private version = 'unknown';
  private implicit: ImplicitProjectConfiguration = {};

  /**
   * @param server tsserver's pipes
   * @param options root, message bound, push delay
   */
  constructor(server: TsserverPipes, options: TsserverBridgeOptions) {
    this.server = server;
    this.options = { pushDelayMs: 200, terminate: () => undefined, onStray: () => undefined, ...options };
    this.pushes = new TsserverPushes(
      {
        publish: (uri, diagnostics) => this.send({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri, diagnostics } }),
        askErrors: (files) => this.toServer('geterr', { delay: 0, files }),
      },
      this.options.pushDelayMs,
    );
    const fromClient = new ContentLengthSplitter(options.maxMessageBytes);
    const fromServer = new ContentLengthSplitter(options.maxMessageBytes, (bytes) => this.options.onStray(bytes.toString('utf8')));
    const stdout = new PassThrough();
    const stdin = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        try {
          for (const body of fromClient.push(chunk)) this.onClient(JSON.parse(body) as Message);
          callback();
        } catch (error) {
          callback(error as Error);
        }
      },
      final: (callback) => {
        this.server.stdin.end();
        callback();
      },
    });
    this.lsp = { stdin, stdout };
    server.stdout.on('data', (chunk: Buffer) => {
      try {
        for (const body of fromServer.push(chunk)) this.onServer(JSON.parse(body) as Record<string, unknown>, body);
      } catch (error) {
        stdout.destroy(error as Error);
      }
    });
    server.stdout.on('end', () => this.close());
    server.stdout.on('error', (error) => stdout.destroy(error));
    // a tsserver gone while we write (EPIPE) fails the channel like a broken pipe, never the process
    server.stdin.on('error', (error) => stdout.destroy(new Error(`writing to tsserver failed: ${error.message}`, { cause: error })));
  }

  private close(): void {
    this.pushes.dispose();
    this.lsp.stdout.end();
  }

  private send(message: unknown): void {
    if (!this.lsp.stdout.writableEnded && !this.lsp.stdout.destroyed) this.lsp.stdout.write(frameMessage(message));
  }

  private reply(id: Id, result: unknown): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  private replyRaw(id: Id, result: string): void {
    if (this.lsp.stdout.writableEnded || this.lsp.stdout.destroyed) return;
    const body = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`, 'utf8');
    this.lsp.stdout.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  private replyError(id: Id, code: number, message: string): void {
    this.send({ jsonrpc: '2.0', id, error: { code, message } });
  }

  /** @returns the seq of the request written to tsserver */
  private toServer(command: string, args?: unknown): number {
    const seq = ++this.seq;
    if (this.server.stdin.writable) this.server.stdin.write(`${JSON.stringify({ seq, type: 'request', command, ...(args === undefined ? {} : { arguments: args }) })}\n`);
    return seq;
  }

  private onClient(message: Message): void {
    const { id, method, params } = message;
    if (method === undefined) return; // an answer to a request of ours: none are sent
    if (id === undefined) {
      this.onNotification(method, params);
      return;
    }
    if (method === 'initialize') this.reply(id, this.initialize(params));
    else if (method === 'shutdown') this.reply(id, null);
    else if (method === 'workspace/executeCommand') this.executeCommand(id, params);
    else this.replyError(id, METHOD_NOT_FOUND, `Unhandled method ${method}`);
  }

  private initialize(params: unknown): unknown {
    const options = isObject(params) && isObject(params.initializationOptions) ? params.initializationOptions : {};
    const tsserver = isObject(options.tsserver) ? options.tsserver : {};
    if (typeof tsserver.version === 'string') this.version = tsserver.version;
    this.toServer('configure', configureArguments(isObject(options.preferences) ? options.preferences : {}));
    this.toServer('compilerOptionsForInferredProjects', { options: inferredProjectOptions(this.version, this.implicit) });
    return {
      capabilities: { textDocumentSync: { openClose: true, change: 1 }, executeCommandProvider: { commands: [TSSERVER_REQUEST_COMMAND] } },
      serverInfo: { name: 'tsserver', version: this.version },
    };
  }

  private onNotification(method: string, params: unknown): void {
    if (method === 'exit') {
      this.toServer('exit');
      this.options.terminate();
      return;
    }
    if (!isObject(params)) return;
    if (method === 'textDocument/didOpen' && isObject(params.textDocument)) this.didOpen(params.textDocument);
    else if (method === 'textDocument/didChange' && isObject(params.textDocument) && Array.isArray(params.contentChanges)) this.didChange(params.textDocument, params.contentChanges);
    else if (method === 'textDocument/didClose' && isObject(params.textDocument)) this.didClose(params.textDocument);
    else if (method === '$/cancelRequest' && (typeof params.id === 'number' || typeof params.id === 'string')) this.cancel(params.id);
    else if (method === 'workspace/didChangeConfiguration') this.configure(params.settings);
  }

  private configure(settings: unknown): void {
    if (!isObject(settings)) return;
    if (isObject(settings.diagnostics) && Array.isArray(settings.diagnostics.ignoredCodes)) this.pushes.ignoredCodes = new Set(settings.diagnostics.ignoredCodes);
    if (isObject(settings.implicitProjectConfiguration)) {
      this.implicit = settings.implicitProjectConfiguration as ImplicitProjectConfiguration;
      this.toServer('compilerOptionsForInferredProjects', { options: inferredProjectOptions(this.version, this.implicit) });
    }
  }

  private didOpen(doc: Record<string, unknown>): void {
    if (typeof doc.uri !== 'string' || typeof doc.text !== 'string') return;
    const file = URI.parse(doc.uri).fsPath;
    const kind = typeof doc.languageId === 'string' ? scriptKindName(doc.languageId) : undefined;
    this.toServer('updateOpen', {
      openFiles: [{ file, fileContent: doc.text, projectRootPath: this.options.root, ...(kind === undefined ? {} : { scriptKindName: kind }) }],
      changedFiles: [],
      closedFiles: [],
    });
    this.open.set(file, tsserverEndOf(doc.text));
    this.pushes.opened(file, doc.uri);
  }

  private didChange(doc: Record<string, unknown>, changes: unknown[]): void {
    if (typeof doc.uri !== 'string') return;
    const file = URI.parse(doc.uri).fsPath;
    let end = this.open.get(file);
    if (end === undefined) return;
    const textChanges: unknown[] = [];
    for (const change of changes) {
      if (!isObject(change) || typeof change.text !== 'string') continue;
      // full sync (advertised): the whole text replaced, from its start to the end tsserver has
      textChanges.push({ start: { line: 1, offset: 1 }, end, newText: change.text });
      end = tsserverEndOf(change.text);
    }
    this.open.set(file, end);
    this.toServer('updateOpen', { changedFiles: [{ fileName: file, textChanges }], openFiles: [], closedFiles: [] });
    this.pushes.changed(file);
  }

  private didClose(doc: Record<string, unknown>): void {
    if (typeof doc.uri !== 'string') return;
    const file = URI.parse(doc.uri).fsPath;
    this.toServer('updateOpen', { closedFiles: [file], openFiles: [], changedFiles: [] });
    this.open.delete(file);
    this.pushes.closed(file);
  }

  private cancel(id: Id): void {
    const seq = this.byId.get(id);
    if (seq === undefined) return;
    this.byId.delete(id);
    this.waiting.delete(seq);
    this.replyError(id, REQUEST_CANCELLED, `Cancelled request ${seq}`);
  }

  private executeCommand(id: Id, params: unknown): void {
    if (!isObject(params) || params.command !== TSSERVER_REQUEST_COMMAND || !Array.isArray(params.arguments) || typeof params.arguments[0] !== 'string') {
      this.replyError(id, METHOD_NOT_FOUND, `Unknown command ${isObject(params) ? String(params.command) : ''}`);
      return;
    }
    const seq = this.toServer(params.arguments[0], params.arguments[1] ?? undefined);
    this.waiting.set(seq, id);
    this.byId.set(id, seq);
  }

  /**
   * @param message tsserver's message, parsed
   * @param raw its text (a successful answer is passed on as it is: no second serialisation)
   */
  private onServer(message: Record<string, unknown>, raw: string): void {
    if (message.type === 'response' && typeof message.request_seq === 'number') {
      const id = this.waiting.get(message.request_seq);
      if (id === undefined) return; // configure, a cancelled request
      this.waiting.delete(message.request_seq);
      this.byId.delete(id);
      if (message.success === true) this.replyRaw(id, raw);
      else if (message.message === 'No content available.') this.reply(id, { type: 'noContent' });
      else this.replyError(id, 1, tsserverErrorMessage(message, this.version));
      return;
    }
    if (message.type === 'event' && typeof message.event === 'string' && isObject(message.body)) this.pushes.onEvent(message.event, message.body);
  }
}
