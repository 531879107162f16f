/**
 * Linux `/proc` helpers: a server's whole process tree, its summed RSS, and what is still
 * alive after a stop (zombies count as gone).
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ProcInfo {
  pid: number;
  ppid: number;
  state: string;
}

function readStat(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …" — comm may contain spaces and parentheses
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: rest[0] ?? '?', ppid: Number(rest[1]) };
  } catch {
    return undefined;
  }
}

function allProcesses(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readStat(Number(name));
    if (info !== undefined) out.push(info);
  }
  return out;
}

/**
 * @param roots root pids
 * @returns the roots and all their live descendants
 */
export function processTree(roots: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  const live = new Set<number>();
  for (const p of allProcesses()) {
    if (p.state === 'Z') continue;
    live.add(p.pid);
    const list = children.get(p.ppid) ?? [];
    list.push(p.pid);
    children.set(p.ppid, list);
  }
  const out: number[] = [];
  const queue = roots.filter((pid) => live.has(pid));
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    if (out.includes(pid)) continue;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * @param pid a process
 * @returns its resident set size in KiB (0 when gone)
 */
export function rssKiB(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? 0 : Number(match[1]);
  } catch {
    return 0;
  }
}

/**
 * @param roots root pids
 * @returns summed RSS (MiB) and process count of their trees
 */
export function treeRss(roots: readonly number[]): { mib: number; processes: number } {
  const pids = processTree(roots);
  const kib = pids.reduce((sum, pid) => sum + rssKiB(pid), 0);
  return { mib: kib / 1024, processes: pids.length };
}

/**
 * @param pid a process
 * @returns whether it exists and is not a zombie
 */
export function isAlive(pid: number): boolean {
  const info = readStat(pid);
  return info !== undefined && info.state !== 'Z';
}

/**
 * SIGKILLs whichever of `pids` is still alive.
 * @param pids processes that should be gone
 * @returns the ones that were still alive (and were killed)
 */
export function killSurvivors(pids: readonly number[]): number[] {
  const survivors = pids.filter(isAlive);
  for (const pid of survivors) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // raced with its exit
    }
  }
  return survivors;
}
