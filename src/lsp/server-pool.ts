/**
 * The warm server pool: one process per (server id, root), started once even under concurrent
 * first calls, reused while warm. A crash fails the pending requests (the client does that);
 * the next call restarts the server after a backoff, until more than `maxRestarts` crashes
 * happened within `restartWindowMs` — then calls fail with `LSP_ACTION_SERVER_GAVE_UP` until
 * the window slides. Idle servers are stopped after `idleTimeoutMs`; beyond `maxLiveServers`
 * the least recently used idle server is stopped first.
 *
 * The cap holds however calls arrive: a start is admitted synchronously (a slot counts as live
 * from its admission on, before its process exists), so concurrent first calls for many roots
 * cannot all pass the check at once. When every live server is in use, a new start waits for
 * one to be released (or stopped), within the caller's own budget (its signal).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { SubprocessRuntime } from '@deepseek-ai/dsh-subprocess';
import type { Config } from '../config.ts';
import { ActionError } from '../errors.ts';
import type { LiveServerInfo } from './engine-types.ts';
import type { EngineLog } from './json-rpc-connection.ts';
import { LanguageClient } from './language-client.ts';
import { serverFingerprint, takePrestartedServer } from './prestarted-servers.ts';
import { raceAbort } from '../race-abort.ts';
import { RestartBudget } from './restart-budget.ts';
import { workspaceRelative } from './server-routing.ts';

interface Slot {
  serverId: string;
  root: string;
  client?: LanguageClient;
  /** The client once `onStarted` ran (handed out only then). */
  ready?: LanguageClient;
  starting?: Promise<LanguageClient>;
  budget: RestartBudget;
  lastUsed: number;
  leases: number;
  idleTimer?: NodeJS.Timeout;
  starts: number;
  lastFailure?: ActionError;
  /** Counted against `maxLiveServers` from admission until its client is gone. */
  admitted?: boolean;
}

/** A client handed out for one call; release it when the call is done. */
export interface ServerLease {
  client: LanguageClient;
  release(): void;
}

/** What the pool needs. */
export interface ServerPoolDeps {
  config: Config;
  subprocess: Pick<SubprocessRuntime, 'spawn'>;
  /** serverId → absolute executable (resolved at load); the configured command otherwise. */
  executables?: ReadonlyMap<string, string>;
  /** serverId → why it cannot run in this execution world (a default server not found at load). */
  unavailable?: ReadonlyMap<string, Error>;
  log: EngineLog;
  /** A client finished `initialize` (attach per-client state). */
  onStarted(client: LanguageClient): void;
  /** A client is gone: crashed, failed to start, or stopped. */
  onGone(client: LanguageClient): void;
}

/** One process per (server id, root). */
export class ServerPool {
  private readonly deps: ServerPoolDeps;
  private readonly slots = new Map<string, Slot>();
  private readonly stopping = new Set<LanguageClient>();
  private disposed = false;
  /** Starts waiting for a live server to become free. */
  private capacityWaiters: Array<() => void> = [];

  /** @param deps config, subprocess seam, executables, log, lifecycle hooks */
  constructor(deps: ServerPoolDeps) {
    this.deps = deps;
  }

  /**
   * @param serverId configured server id
   * @param root the server's root directory
   * @param signal abandons the wait (a shared start keeps going for others)
   * @param takeAhead when this lease starts the (serverId, root) process, take the one a host
   *   started ahead if it is that very process (prestarted-servers.ts) — only a warm start asks
   *   this: its epoch is what proves that process's answers (warm-start.ts)
   * @returns a ready client, leased until `release()`
   */
  async lease(serverId: string, root: string, signal?: AbortSignal, takeAhead = false): Promise<ServerLease> {
    if (this.disposed) throw disposedError();
    const missing = this.deps.unavailable?.get(serverId);
    if (missing !== undefined) throw missing;
    const key = `${serverId}\u0000${root}`;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      const entry = this.entry(serverId);
      slot = { serverId, root, budget: new RestartBudget(entry.maxRestarts, entry.restartWindowMs), lastUsed: performance.now(), leases: 0, starts: 0 };
      this.slots.set(key, slot);
    }
    const s = slot;
    s.leases++;
    s.lastUsed = performance.now();
    if (s.idleTimer !== undefined) clearTimeout(s.idleTimer);
    s.idleTimer = undefined;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.release(s);
    };
    try {
      return { client: await this.ensure(s, signal, takeAhead), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * A lease of the (serverId, root) process only when it is ready now: never starts, restarts
   * or waits for one, so asking it cannot push another server out of `maxLiveServers`.
   * @param serverId configured server id
   * @param root the server's root directory
   * @returns the lease, or undefined when no ready process is there
   */
  leaseIfReady(serverId: string, root: string): ServerLease | undefined {
    const slot = this.slots.get(`${serverId}\u0000${root}`);
    const client = slot?.ready;
    if (this.disposed || slot === undefined || client === undefined || client.state !== 'ready' || slot.client !== client) return undefined;
    slot.leases++;
    if (slot.idleTimer !== undefined) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    let released = false;
    return {
      client,
      release: () => {
        if (released) return;
        released = true;
        this.release(slot);
      },
    };
  }

  /**
   * @param serverId configured server id
   * @param root the server's root directory
   * @returns whether a process of (serverId, root) was ever spawned or is being started
   */
  everStarted(serverId: string, root: string): boolean {
    const slot = this.slots.get(`${serverId}\u0000${root}`);
    return slot !== undefined && (slot.starts > 0 || slot.starting !== undefined || slot.client !== undefined);
  }

  private async ensure(slot: Slot, signal?: AbortSignal, takeAhead = false): Promise<LanguageClient> {
    for (;;) {
      if (this.disposed) throw disposedError();
      if (slot.ready !== undefined && slot.ready === slot.client && slot.ready.state === 'ready') return slot.ready;
      if (slot.starting === undefined) {
        if (slot.budget.gaveUp) throw this.gaveUpError(slot);
        const starting = this.start(slot, takeAhead);
        slot.starting = starting;
        starting.then(
          () => this.clearStarting(slot, starting),
          () => this.clearStarting(slot, starting),
        );
      }
      await raceAbort(slot.starting, signal);
    }
  }

  private clearStarting(slot: Slot, starting: Promise<LanguageClient>): void {
    if (slot.starting === starting) slot.starting = undefined;
  }

  private async start(slot: Slot, takeAhead: boolean): Promise<LanguageClient> {
    const backoff = slot.budget.backoffMs;
    if (backoff > 0) {
      this.deps.log('info', `${slot.serverId}: restarting in ${backoff} ms after ${slot.budget.recent} crash(es)`);
      await delay(backoff);
    }
    if (this.disposed) throw disposedError();
    try {
      await this.makeRoom(slot);
    } catch (error) {
      slot.admitted = false;
      throw error;
    }
    const entry = this.entry(slot.serverId);
    const executable = this.deps.executables?.get(slot.serverId) ?? entry.command;
    // the very process this start would make, started by the host before the engine existed
    // (prestarted-servers.ts): only for a slot's first start, and only for a warm start
    const ahead = takeAhead && slot.starts === 0 ? takePrestartedServer(slot.serverId, slot.root, serverFingerprint(entry, executable)) : undefined;
    const client =
      ahead?.client ??
      new LanguageClient({
        serverId: slot.serverId,
        root: slot.root,
        config: entry,
        executable,
        subprocess: this.deps.subprocess,
        log: this.deps.log,
      });
    if (ahead !== undefined) this.deps.log('debug', `${slot.serverId}: took the process started before the engine (root ${slot.root})`);
    slot.client = client;
    slot.starts++;
    client.onDidFail((error) => {
      slot.budget.recordCrash();
      slot.lastFailure = error;
      if (slot.client === client) {
        slot.client = undefined;
        slot.admitted = false;
      }
      if (slot.ready === client) slot.ready = undefined;
      this.deps.onGone(client);
      this.capacityChanged();
    });
    await (ahead?.started ?? client.start());
    this.deps.onStarted(client);
    if (slot.client === client) slot.ready = client;
    return client;
  }

  private release(slot: Slot): void {
    slot.leases = Math.max(0, slot.leases - 1);
    slot.lastUsed = performance.now();
    if (slot.leases === 0) this.capacityChanged();
    const idleMs = this.entry(slot.serverId).idleTimeoutMs;
    if (slot.leases > 0 || idleMs <= 0 || slot.client === undefined || this.disposed) return;
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = undefined;
      if (slot.leases === 0 && slot.client !== undefined && !slot.client.busy) {
        this.deps.log('info', `${slot.serverId}: stopping after ${idleMs} ms idle (idleTimeoutMs)`);
        void this.stopSlot(slot);
      }
    }, idleMs);
    slot.idleTimer.unref();
  }

  /**
   * Admits `starting` under `maxLiveServers`: counts every other admitted or live slot, stops
   * the least recently used idle ones when over, and otherwise waits until a live server is
   * released or gone. The admission itself is synchronous with the count.
   */
  private async makeRoom(starting: Slot): Promise<void> {
    const max = this.deps.config.maxLiveServers;
    let warned = false;
    for (;;) {
      if (this.disposed) throw disposedError();
      const live = [...this.slots.values()].filter((s) => s !== starting && (s.client !== undefined || s.admitted === true));
      const excess = live.length + 1 - max;
      if (excess <= 0) {
        starting.admitted = true;
        return;
      }
      const idle = live
        .filter((s) => s.leases === 0 && s.client !== undefined && s.starting === undefined && !s.client.busy)
        .sort((a, b) => a.lastUsed - b.lastUsed)
        .slice(0, excess);
      if (idle.length === excess) {
        for (const slot of idle) {
          this.deps.log('info', `${slot.serverId}: stopping (least recently used; maxLiveServers ${max})`);
        }
        // the stopped slots stop counting at once (stopSlot clears their client synchronously)
        const stops = idle.map((slot) => this.stopSlot(slot));
        starting.admitted = true;
        await Promise.all(stops);
        return;
      }
      if (!warned) {
        warned = true;
        this.deps.log('info', `${starting.serverId}: waiting for one of ${max} live servers (maxLiveServers) to be free`);
      }
      await new Promise<void>((resolve) => this.capacityWaiters.push(resolve));
    }
  }

  /** Wakes every start waiting for a free live server (each re-checks). */
  private capacityChanged(): void {
    const waiters = this.capacityWaiters;
    this.capacityWaiters = [];
    for (const wake of waiters) wake();
  }

  private async stopSlot(slot: Slot): Promise<void> {
    if (slot.idleTimer !== undefined) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    const client = slot.client;
    slot.client = undefined;
    slot.ready = undefined;
    slot.admitted = false;
    if (client === undefined) return;
    this.stopping.add(client);
    try {
      await client.stop();
    } finally {
      this.stopping.delete(client);
      this.deps.onGone(client);
      this.capacityChanged();
    }
  }

  /**
   * Stops the process of (serverId, root) once the calls using it are done: waits for its
   * leases to be released (and for a start in progress to end), then shutdown → exit →
   * process-tree kill, as on dispose. Its documents are forgotten ({@link ServerPoolDeps.onGone});
   * a later lease for the same root starts a new process. The restart budget is kept: a stop is
   * not a crash.
   * @param serverId configured server id
   * @param root the server's root directory
   * @param signal abandons the wait for the leases (the server is then left running)
   * @returns whether a live process was stopped
   */
  async stop(serverId: string, root: string, signal?: AbortSignal): Promise<boolean> {
    const slot = this.slots.get(`${serverId}\u0000${root}`);
    if (slot === undefined) return false;
    for (;;) {
      if (this.disposed) return false;
      if (slot.starting !== undefined) {
        await raceAbort(slot.starting.catch(() => undefined), signal);
        continue;
      }
      if (slot.leases === 0) break;
      await raceAbort(new Promise<void>((resolve) => this.capacityWaiters.push(resolve)), signal);
    }
    if (slot.client === undefined) return false;
    this.deps.log('info', `${serverId}: stopping (asked to, root ${root})`);
    await this.stopSlot(slot);
    return true;
  }

  /**
   * @param root only servers whose root is this directory or inside it
   * @returns ready clients
   */
  clients(root?: string): LanguageClient[] {
    return [...this.slots.values()]
      .map((s) => s.ready)
      .filter((c): c is LanguageClient => c?.state === 'ready' && (root === undefined || c.root === root || workspaceRelative(c.root, root) !== undefined));
  }

  /**
   * @param openDocuments how many documents a client has open
   * @returns live processes for status listings
   */
  live(openDocuments: (client: LanguageClient) => number): LiveServerInfo[] {
    const out: LiveServerInfo[] = [];
    const add = (client: LanguageClient, restarts: number): void => {
      const state = client.state === 'ready' ? 'ready' : client.state === 'starting' || client.state === 'new' ? 'starting' : 'stopping';
      const info: LiveServerInfo = { serverId: client.serverId, root: client.root, state, openDocuments: openDocuments(client), restarts };
      if (client.pid !== undefined) info.pid = client.pid;
      out.push(info);
    };
    for (const slot of this.slots.values()) if (slot.client !== undefined) add(slot.client, Math.max(0, slot.starts - 1));
    for (const client of this.stopping) add(client, 0);
    return out;
  }

  /** Stops every server: shutdown → exit → process-tree kill, all awaited. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.capacityChanged();
    await Promise.all([...this.slots.values()].map((slot) => this.stopSlot(slot)));
    await Promise.all([...this.slots.values()].map((slot) => slot.starting?.catch(() => undefined)));
    await Promise.all([...this.slots.values()].map((slot) => this.stopSlot(slot)));
    // and the stops already under way (stop(), an idle or LRU stop): no process outlives the pool
    await Promise.all([...this.stopping].map((client) => client.stop()));
  }

  private entry(serverId: string): Config['servers'][string] {
    const entry = this.deps.config.servers[serverId];
    if (entry === undefined) throw new ActionError('LSP_ACTION_CONFIG_INVALID', `servers.${serverId} is not configured`, { serverId });
    return entry;
  }

  private gaveUpError(slot: Slot): ActionError {
    const entry = this.entry(slot.serverId);
    const last = slot.lastFailure;
    return new ActionError(
      'LSP_ACTION_SERVER_GAVE_UP',
      `language server ${slot.serverId} crashed ${slot.budget.recent} times within ${entry.restartWindowMs} ms (more than maxRestarts ${entry.maxRestarts}); ` +
        `it will not be restarted for ${slot.budget.retryAfterMs} ms. Last failure: ${last?.message ?? 'unknown'}`,
      {
        serverId: slot.serverId,
        root: slot.root,
        crashes: slot.budget.recent,
        retryAfterMs: slot.budget.retryAfterMs,
        stderrTail: typeof last?.details.stderrTail === 'string' ? last.details.stderrTail : '',
        lastFailure: last === undefined ? undefined : { code: last.code, message: last.message },
      },
    );
  }
}

function disposedError(): ActionError {
  return new ActionError('LSP_ACTION_DISPOSED', 'the language-server engine was disposed');
}

