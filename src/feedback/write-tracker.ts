/**
 * Which files a tool call wrote, told by the harness's own record: every `fs/observed` event a
 * followed tool call emits with itself as the actor. The harness's `write` and `edit` and this
 * plugin's write path emit a present observation only after a write succeeded, so within a
 * followed call an observation is a write; argument names are never read. Observations by other
 * calls (the harness's `read`) are reads: they update the session's last seen version and may
 * start a baseline check.
 */
import type { FsObservation, FsTarget, FsVersion } from '@deepseek-ai/dsh-fs';

/** A file a followed call wrote. */
export interface ObservedWrite {
  /** Absolute path (the fs backend's process path). */
  path: string;
  /** The version the write left on disk, when known. */
  version?: FsVersion;
  /** The ledger tick at which the write was first noted (a baseline must predate it). */
  tick: number;
  /** What the session had seen of the file before this call (undefined: never observed). */
  previous?: FsObservation;
}

/** A file an agent read (observed present outside a followed call). */
export interface ObservedRead {
  target: FsTarget;
  path: string;
  version: FsVersion;
  /** The reading call's agent, as the actor carried it. */
  agent: AgentLike;
}

/** The parts of an agent the tracker reads. */
export interface AgentLike {
  id: unknown;
  session: { header: { id?: unknown; cwd?: unknown } };
}

/** The parts of a tool execution the tracker reads (the `fs/observed` actor, the post-execute exec). */
export interface CallLike {
  callId?: unknown;
  name?: unknown;
  agent?: unknown;
}

/** How the tracker is set up. */
export interface WriteTrackerOptions {
  /** Whether calls of this tool get feedback. */
  follows: (toolName: string) => boolean;
  /** The absolute path of a target, or undefined when the backend cannot tell. */
  pathOf: (target: FsTarget) => string | undefined;
  /** Told about every read of an agent (synchronously; must not throw). */
  onRead?: (read: ObservedRead) => void;
  /** Notes a write (synchronously, at once: baselines begun later are not its "before"); returns the note's tick. */
  onWrite: (path: string, agent: AgentLike, kind: 'created' | 'changed', version: FsVersion | undefined) => number;
  /** Calls and (session, file) versions remembered at most. */
  maxEntries: number;
}

/**
 * @param value an actor or exec
 * @returns its agent, when it carries a live one
 */
export function agentOf(value: CallLike | undefined): AgentLike | undefined {
  const agent = value?.agent as AgentLike | undefined;
  if (typeof agent !== 'object' || agent === null || typeof agent.session?.header !== 'object') return undefined;
  return agent;
}

/**
 * @param agent an agent
 * @returns the key its session's records are kept under (as `lsp_diagnostics` keys its baselines)
 */
export function sessionKey(agent: AgentLike): string {
  return String(agent.session.header.id ?? agent.id);
}

/** @returns the key of one call, or undefined for an agentless or anonymous call */
function callKey(call: CallLike | undefined): string | undefined {
  const agent = agentOf(call);
  if (agent === undefined || typeof call?.callId !== 'string') return undefined;
  return `${sessionKey(agent)}\0${call.callId}`;
}

/** Records writes per call and the last observed version per (session, file). */
export class WriteTracker {
  readonly #options: WriteTrackerOptions;
  readonly #writes = new Map<string, ObservedWrite[]>();
  readonly #seen = new Map<string, FsObservation>();

  /** @param options followed tools, path mapping, read hook, bounds */
  constructor(options: WriteTrackerOptions) {
    this.#options = options;
  }

  /**
   * The `fs/observed` listener: synchronous, never throws (a throwing recorder would fail the
   * observing tool call).
   * @param target the observed target
   * @param observation present with its version, or absent
   * @param actor the observing call
   */
  observe(target: FsTarget, observation: FsObservation, actor: object | undefined): void {
    try {
      this.#observe(target, observation, actor as CallLike | undefined);
    } catch {
      // swallowed: feedback bookkeeping must never fail the observing call; the write then simply gets no verdict
    }
  }

  #observe(target: FsTarget, observation: FsObservation, actor: CallLike | undefined): void {
    const agent = agentOf(actor);
    if (agent === undefined) return; // agentless writes (editor, CLI) are not followed
    const path = this.#options.pathOf(target);
    if (path === undefined) return;
    const seenKey = `${sessionKey(agent)}\0${path}`;
    const previous = this.#seen.get(seenKey);
    remember(this.#seen, seenKey, observation, this.#options.maxEntries);
    const name = typeof actor?.name === 'string' ? actor.name : '';
    if (observation.kind !== 'present') return;
    if (!this.#options.follows(name)) {
      this.#options.onRead?.({ target, path, version: observation.version, agent });
      return;
    }
    this.#record(actor, agent, path, observation.version, previous);
  }

  /**
   * Records a write our own write path made for a call, whether or not it emitted `fs/observed`
   * (it does not for a file the agent had not read).
   * @param actor the writing call (the tool's exec)
   * @param path absolute path written
   */
  recordWrite(actor: object | undefined, path: string): void {
    try {
      const call = actor as CallLike | undefined;
      const agent = agentOf(call);
      if (agent === undefined || !this.#options.follows(typeof call?.name === 'string' ? call.name : '')) return;
      const key = callKey(call);
      if (key === undefined || this.#writes.get(key)?.some((w) => w.path === path)) return;
      this.#record(call, agent, path, undefined, this.#seen.get(`${sessionKey(agent)}\0${path}`));
    } catch {
      // swallowed: as for observe, bookkeeping never fails the write; the file then gets no verdict
    }
  }

  #record(actor: CallLike | undefined, agent: AgentLike, path: string, version: FsVersion | undefined, previous: FsObservation | undefined): void {
    const key = callKey(actor);
    if (key === undefined) return;
    const list = this.#writes.get(key) ?? [];
    const earlier = list.findIndex((w) => w.path === path);
    const before = earlier >= 0 ? list[earlier] : undefined;
    // a file written twice in one call: keep what the session saw before the call and the first note, and the last version
    const tick = before?.tick ?? this.#options.onWrite(path, agent, previous?.kind === 'absent' ? 'created' : 'changed', version);
    const kept = before ? pick(before) : previous ? { previous } : {};
    const entry: ObservedWrite = { path, tick, ...(version !== undefined ? { version } : {}), ...kept };
    if (earlier >= 0) list.splice(earlier, 1);
    list.push(entry);
    remember(this.#writes, key, list, this.#options.maxEntries);
  }

  /**
   * @param call the finished call
   * @returns the files it wrote, forgetting them
   */
  take(call: CallLike): ObservedWrite[] {
    const key = callKey(call);
    if (key === undefined) return [];
    const list = this.#writes.get(key) ?? [];
    this.#writes.delete(key);
    return list;
  }

  /** @param sessionId a session that ended; its records are dropped */
  forgetSession(sessionId: string): void {
    const prefix = `${sessionId}\0`;
    for (const map of [this.#writes, this.#seen] as Array<Map<string, unknown>>) {
      for (const key of map.keys()) if (key.startsWith(prefix)) map.delete(key);
    }
  }

  /** Drops everything (plugin disposal). */
  clear(): void {
    this.#writes.clear();
    this.#seen.clear();
  }
}

function pick(write: ObservedWrite | undefined): Pick<ObservedWrite, 'previous'> {
  return write?.previous ? { previous: write.previous } : {};
}

/** Sets `key` as the most recent entry, dropping the oldest beyond `max`. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value as string);
}
