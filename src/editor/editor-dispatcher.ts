/**
 * Routes inbound JSON-RPC messages of `lsp-actions/v1` to their handlers. Requests are served
 * concurrently and answered exactly once; notifications are never answered.
 */
import type { ActionCatalogEntry } from '../actions/action-registry.ts';
import type { ActionRunHandler } from './action-run-handler.ts';
import { PROTOCOL } from './action-run-handler.ts';
import type { EventStream, SessionInfo } from './event-stream.ts';
import { errorFrame, INTERNAL_ERROR, METHOD_NOT_FOUND, resultFrame, RpcError, type JsonRpcInbound, type JsonRpcRequest } from './json-rpc.ts';

/** The `lsp.actions.list` result. */
export interface ListResult {
  protocol: typeof PROTOCOL;
  version: 1;
  actions: ActionCatalogEntry[];
  sessions: SessionInfo[];
}

/** What the dispatcher routes to. */
export interface EditorDispatcherDeps {
  /** The action catalog (`registry.list()`). */
  catalog: () => ActionCatalogEntry[];
  sessions: () => SessionInfo[];
  runs: Pick<ActionRunHandler, 'run' | 'cancel'>;
  events: Pick<EventStream, 'applySubscription'>;
  /** Writes one frame. */
  send: (frame: object) => void;
  /** Settles when the composition is ready (the Loader finished mounting); awaited before any handling. */
  ready: () => Promise<void>;
  /** A notification or handler failure worth a stderr line. */
  log?: (message: string) => void;
  /** A dispatched message was handled (answered, for a request). */
  onSettled?: () => void;
}

type Handler = (params: unknown) => unknown;

/**
 * The dispatcher. Methods: `lsp.actions.list`, `lsp.actions.run`, `lsp.actions.cancel`
 * (additive) and the notification `lsp.events`. Unknown methods answer `-32601`
 * (`method not found: <method>`); a handler that throws answers `-32603` with its message.
 */
export class EditorDispatcher {
  readonly #deps: EditorDispatcherDeps;
  readonly #requests: ReadonlyMap<string, Handler>;
  readonly #notifications: ReadonlyMap<string, (params: unknown) => void>;
  readonly #pending = new Set<Promise<void>>();

  /** @param deps catalog, sessions, run handler, events, output, readiness */
  constructor(deps: EditorDispatcherDeps) {
    this.#deps = deps;
    this.#requests = new Map<string, Handler>([
      ['lsp.actions.list', () => this.list()],
      ['lsp.actions.run', (params) => deps.runs.run(params)],
      ['lsp.actions.cancel', (params) => deps.runs.cancel(params)],
    ]);
    this.#notifications = new Map([['lsp.events', (params: unknown) => deps.events.applySubscription(params)]]);
  }

  /** @returns the `lsp.actions.list` result */
  list(): ListResult {
    return { protocol: PROTOCOL, version: 1, actions: this.#deps.catalog(), sessions: this.#deps.sessions() };
  }

  /**
   * Handles one message without blocking the next one.
   * @param message a well-formed inbound message
   */
  dispatch(message: JsonRpcInbound): void {
    const work = message.kind === 'request' ? this.#request(message) : this.#notification(message.method, message.params);
    this.#pending.add(work);
    void work.finally(() => {
      this.#pending.delete(work);
      this.#deps.onSettled?.();
    });
  }

  /** @returns messages dispatched and not handled yet */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** @returns settles once every message dispatched so far has been handled */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled(this.#pending);
  }

  async #request(request: JsonRpcRequest): Promise<void> {
    try {
      await this.#deps.ready();
      const handler = this.#requests.get(request.method);
      if (!handler) throw new RpcError(METHOD_NOT_FOUND, `method not found: ${request.method}`);
      const result = await handler(request.params);
      this.#deps.send(resultFrame(request.id, result));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const code = error instanceof RpcError ? error.rpcCode : INTERNAL_ERROR;
      if (code === INTERNAL_ERROR) this.#deps.log?.(`${request.method} failed: ${message}`);
      this.#deps.send(errorFrame(request.id, code, message));
    }
  }

  async #notification(method: string, params: unknown): Promise<void> {
    try {
      await this.#deps.ready();
      const handler = this.#notifications.get(method);
      if (!handler) {
        this.#deps.log?.(`unknown notification ignored: ${method}`);
        return;
      }
      handler(params);
    } catch (error) {
      // swallowed: a notification is never answered; the stderr log is all there is
      this.#deps.log?.(`${method} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
