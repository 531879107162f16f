/**
 * Who owns a write journal: a process id is not an identity (ids are reused, and a journal may
 * name any number), so a journal records its writer as pid + boot id + the process's start time
 * in clock ticks since boot (`/proc/<pid>/stat`, field 22). A journal's writer counts as running
 * only when a process with that id runs now, in this boot, started at that same tick — anything
 * else (a dead pid, a reused pid, another boot, a pid written by hand) is not our writer.
 *
 * Without `/proc` (not Linux) the start time is unknown; a live pid then counts as running, and
 * the journal's busy error names the file to delete when no dsh-lsp-actions process runs.
 */
import { readFileSync } from 'node:fs';

/** The process that wrote a journal entry. */
export interface ProcessIdentity {
  pid: number;
  /** `/proc/sys/kernel/random/boot_id` (absent without /proc). */
  bootId?: string;
  /** Start time in clock ticks since boot, as a decimal string (absent without /proc). */
  startTicks?: string;
}

/** Whether a journal's writer runs now. */
export type Liveness = 'this-process' | 'running' | 'gone';

/**
 * @param pid a process id
 * @returns its start time in clock ticks since boot, or undefined when it does not run (or there is no /proc)
 */
function startTicksOf(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: fields after the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields[19];
    return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

let own: ProcessIdentity | undefined;

/** @returns this process's identity (computed once) */
export function ownProcessIdentity(): ProcessIdentity {
  if (own === undefined) {
    const boot = bootId();
    const ticks = startTicksOf('self');
    own = { pid: process.pid, ...(boot ? { bootId: boot } : {}), ...(ticks ? { startTicks: ticks } : {}) };
  }
  return own;
}

/**
 * @param writer the identity a journal names
 * @returns whether that process is this one, runs elsewhere now, or is gone
 */
export function livenessOf(writer: ProcessIdentity): Liveness {
  const me = ownProcessIdentity();
  if (me.bootId !== undefined && me.startTicks !== undefined) {
    // With /proc the journal must name this boot and the exact start tick of a running process.
    if (writer.bootId !== me.bootId || writer.startTicks === undefined) return 'gone';
    if (writer.pid === me.pid) return writer.startTicks === me.startTicks ? 'this-process' : 'gone';
    return startTicksOf(writer.pid) === writer.startTicks ? 'running' : 'gone';
  }
  if (writer.pid === me.pid) return 'this-process';
  try {
    process.kill(writer.pid, 0);
    return 'running';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'running' : 'gone';
  }
}
