/**
 * The `lsp.event` stream: flat `{kind, ...payload}` notifications, sent only while the client
 * is subscribed (`lsp.events {subscribe}`); nothing is buffered or replayed. v1 defines
 * `diagnostics.updated` as a fresh snapshot, so unsolicited ones (`origin: 'push'`) that are not
 * fresh (`state` `pending`/`stale`) are sent only to a client that opted in with the additive
 * `includeNonFresh: true`. On-demand ones (`origin: 'run'`) mirror the run's result, state included.
 */
import { notificationFrame } from './json-rpc.ts';

/** One live DSH session as `lsp.actions.list` and `sessions.changed` show it. */
export interface SessionInfo {
  sessionId: string;
  /** The session's workspace (`""` when the session has none). */
  cwd: string;
  live: boolean;
}

/** `action.status` lifecycle states. */
export type ActionStatus = 'started' | 'succeeded' | 'failed';

import type { WireError } from './wire-error.ts';

export type { WireError } from './wire-error.ts';

/** Payload of each event kind (v1 fields first; `workspaceRoot`, `state`, `version` are additive). */
export interface EditorEventMap {
  'diagnostics.updated': {
    filePath: string;
    diagnostics: unknown[];
    truncated: boolean;
    total: number;
    /** The first diagnostic's `source` name, when it has one. */
    source?: string;
    workspaceRoot?: string;
    state?: string;
    version?: number;
    /** Additive: `run` after a `diagnostics.get`, `push` when a server published on its own. */
    origin: 'run' | 'push';
    /** Additive: the run that produced it (`origin: 'run'`). */
    requestId?: string;
  };
  'action.status': { requestId: string; action: string; status: ActionStatus; error?: WireError };
  /** `requestId` (additive) names the write run that changed the file; absent for observed changes. */
  'file.changed': { filePath: string; workspaceRoot?: string; requestId?: string };
  'sessions.changed': { sessions: SessionInfo[] };
}

/** An event kind. */
export type EditorEventKind = keyof EditorEventMap;

/**
 * Holds the subscription flag and sends events through the transport while it is on.
 */
export class EventStream {
  readonly #send: (frame: object) => void;
  #subscribed = false;
  #includeNonFresh = false;

  /** @param send writes one frame (the transport's `send`) */
  constructor(send: (frame: object) => void) {
    this.#send = send;
  }

  /** @returns whether events are currently sent */
  get subscribed(): boolean {
    return this.#subscribed;
  }

  /** @returns whether the client opted in to non-fresh `diagnostics.updated` */
  get includeNonFresh(): boolean {
    return this.#subscribed && this.#includeNonFresh;
  }

  /**
   * Applies an `lsp.events` notification: `subscribe: false` turns the stream off, anything
   * else (`true`, absent, not a boolean) turns it on; repeating either is harmless. Each
   * notification also sets `includeNonFresh` (only a literal `true` opts in; absent resets it).
   * @param params the notification's params
   */
  applySubscription(params: unknown): void {
    const p = params as { subscribe?: unknown; includeNonFresh?: unknown } | null | undefined;
    this.#subscribed = p?.subscribe !== false;
    this.#includeNonFresh = p?.includeNonFresh === true;
  }

  /** Turns the stream off (dispose). */
  stop(): void {
    this.#subscribed = false;
    this.#includeNonFresh = false;
  }

  /**
   * Sends one event when subscribed. An unsolicited `diagnostics.updated` whose `state` is not
   * `fresh` is sent only when the client opted in (`includeNonFresh`).
   * @param kind event kind
   * @param payload its fields, flattened next to `kind`
   * @returns whether it was sent
   */
  emit<K extends EditorEventKind>(kind: K, payload: EditorEventMap[K]): boolean {
    if (!this.#subscribed) return false;
    if (kind === 'diagnostics.updated' && !this.#includeNonFresh && !mayPushByDefault(payload as EditorEventMap['diagnostics.updated'])) return false;
    this.#send(notificationFrame('lsp.event', { kind, ...payload }));
    return true;
  }
}

/**
 * @param payload a `diagnostics.updated` payload
 * @returns whether a v1 client may get it: on demand, or a fresh push (no `state`: not fresh)
 */
function mayPushByDefault(payload: EditorEventMap['diagnostics.updated']): boolean {
  return payload.origin === 'run' || payload.state === 'fresh';
}
