/**
 * `check`'s work, server process by server process (docs/decisions/0105-check-program-by-program.md).
 * Each TypeScript program has its own server (decision 0034); keeping all of them alive until the
 * end multiplied memory on project-references solutions. Here the files are grouped by the
 * servers that answer for them (for TypeScript: the program's server), up to `concurrency` at once,
 * and when a group is done — its files, what `follow` finds from it (the files its programs import
 * from outside their `include`, checked on the same servers), and those files too — every server
 * no other unfinished group needs is stopped before the next group starts.
 *
 * Within one server the order of the work is today's: the group's files in the given order, then
 * the files found through it. A file found later that goes to a server already stopped is checked
 * in a group of its own at the end (a new process for that root).
 */

/** One server process: a configured server and its root. */
export interface ServerKey {
  serverId: string;
  root: string;
}

/** What {@link runProgramSchedule} needs. */
export interface ProgramScheduleOptions<R> {
  /** The files to check, in order (groups keep it). */
  files: readonly string[];
  /** The server processes whose answers make a file's result; undefined when that cannot be known (then nothing is stopped). */
  serversOf: (file: string) => Promise<ServerKey[] | undefined>;
  /** Checks files whose answers come from the same servers. */
  check: (files: string[]) => Promise<R[]>;
  /** After a group's own files, while its servers are live: more files to check (already-scheduled ones are dropped). */
  follow?: (files: readonly string[]) => Promise<string[]>;
  /** Stops one server process; absent: nothing is stopped (`--watch` keeps its servers warm). */
  stop?: (server: ServerKey) => Promise<unknown>;
  /** Server processes live before the schedule (a prestart): their groups go first; stopped at once when no group needs them. */
  live?: readonly ServerKey[];
  /** Groups run at once (at least 1). */
  concurrency: number;
  /** Ends the schedule: no new group starts. */
  signal?: AbortSignal;
}

interface Group {
  key: string;
  servers: ServerKey[];
  files: string[];
  state: 'pending' | 'running' | 'done';
}

const keyOfServer = (server: ServerKey): string => `${server.serverId}\u0000${server.root}`;

/**
 * @param options files, how to route, check and stop, and how many groups at once
 * @returns every result `check` gave, group by group
 */
export async function runProgramSchedule<R>(options: ProgramScheduleOptions<R>): Promise<R[]> {
  const aborted = (): boolean => options.signal?.aborted === true;
  const results: R[] = [];
  const groups: Group[] = [];
  /** The pending group per routing key (files found later join it). */
  const pending = new Map<string, Group>();
  /** Unfinished groups per server process. */
  const users = new Map<string, number>();
  const scheduled = new Set<string>();
  let routable = true;

  const route = async (file: string): Promise<{ key: string; servers: ServerKey[] }> => {
    const servers = routable ? await options.serversOf(file) : undefined;
    if (servers === undefined) routable = false;
    const list = servers ?? [];
    return { key: routable ? list.map(keyOfServer).sort().join('\u0001') : '', servers: list };
  };
  /** Schedules a file once: into `own` (the running group) when it goes to the same servers, else into the pending group for them. */
  const add = (file: string, key: string, servers: ServerKey[], own?: Group): void => {
    if (scheduled.has(file)) return;
    scheduled.add(file);
    if (own !== undefined && own.key === key) {
      own.files.push(file);
      return;
    }
    let group = pending.get(key);
    if (group === undefined) {
      group = { key, servers, files: [], state: 'pending' };
      groups.push(group);
      pending.set(key, group);
      for (const server of servers) users.set(keyOfServer(server), (users.get(keyOfServer(server)) ?? 0) + 1);
    }
    group.files.push(file);
  };

  try {
    // all at once: a file's servers may need their roots found on disk (a walk up its directories)
    const routes = await Promise.all(options.files.map(route));
    options.files.forEach((file, index) => {
      const { key, servers } = routes[index] as { key: string; servers: ServerKey[] };
      add(file, key, servers);
    });
  } catch (error) {
    if (aborted()) return results;
    throw error;
  }
  if (!routable) {
    // One group, nothing stopped: the engine cannot say which process answers what.
    const all = groups.flatMap((group) => group.files);
    groups.splice(0, groups.length, { key: '', servers: [], files: all, state: 'pending' });
    pending.clear();
    pending.set('', groups[0] as Group);
  }
  const stop = routable ? options.stop : undefined;
  // The groups of servers already live first: a prestarted server is used while warm.
  const warm = new Set((options.live ?? []).map(keyOfServer));
  const order = (group: Group): number => (group.servers.some((server) => warm.has(keyOfServer(server))) ? 0 : 1);
  groups.sort((a, b) => order(a) - order(b));
  if (stop !== undefined) {
    // Before any group starts: the bound holds from the first group on.
    const unused = (options.live ?? []).filter((server) => (users.get(keyOfServer(server)) ?? 0) === 0);
    await Promise.all(unused.map((server) => stop(server).catch(() => undefined)));
  }

  /** Workers waiting for a group to end or to find files. */
  const waiting: Array<() => void> = [];
  const notify = (): void => {
    for (const wake of waiting.splice(0)) wake();
  };

  const runGroup = async (group: Group): Promise<void> => {
    group.state = 'running';
    if (pending.get(group.key) === group) pending.delete(group.key);
    try {
      let next = 0;
      while (next < group.files.length && !aborted()) {
        const batch = group.files.slice(next);
        next = group.files.length;
        results.push(...(await options.check(batch)));
        if (aborted() || options.follow === undefined || batch.length === 0) continue;
        const found = await options.follow(batch);
        for (const file of found) {
          const { key, servers } = await route(file);
          // same servers: appended to this group's files, checked in this loop
          add(file, key, servers, group);
        }
        if (found.length > 0) notify();
      }
    } finally {
      group.state = 'done';
      if (stop !== undefined) {
        const idle = group.servers.filter((server) => {
          const left = (users.get(keyOfServer(server)) ?? 1) - 1;
          users.set(keyOfServer(server), left);
          return left === 0;
        });
        // Awaited: the next group starts once this one's processes are gone (the memory bound).
        await Promise.all(idle.map((server) => stop(server).catch(() => undefined)));
      }
      notify();
    }
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      if (aborted()) return;
      const group = groups.find((g) => g.state === 'pending');
      if (group !== undefined) {
        await runGroup(group);
        continue;
      }
      // a running group may still find files for a new group
      if (!groups.some((g) => g.state === 'running')) return;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  // Settled, not raced: a worker that failed does not leave another's stop running unawaited.
  const ends = await Promise.allSettled(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  const failed = ends.find((end) => end.status === 'rejected');
  // an interrupt cut a lookup short: the results so far stand (the caller reports the interrupt)
  if (failed !== undefined && !aborted()) throw failed.reason;
  return results;
}
