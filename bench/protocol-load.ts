/**
 * A closed-loop load generator for the protocol benchmark (N workers, each sending its next
 * request when its previous one is answered, so exactly N are in flight), and per-process CPU
 * time from `/proc/<pid>/stat` to say where the time of a request is spent.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { now } from './raw-session.ts';

/** One load run. */
export interface LoadRun {
  /** Per-request latency, ms, in completion order. */
  latencies: number[];
  /** Wall time of the whole run, ms. */
  wallMs: number;
  /** Requests whose result was not the expected one. */
  failures: number;
  /** First failure, for the report. */
  firstFailure?: string;
}

/**
 * Sends `total` requests with `inflight` of them outstanding at any time.
 * @param total requests to send
 * @param inflight requests kept in flight (1 = sequential)
 * @param op one request; resolves with `undefined` when the result is right, else a reason
 * @returns latencies, wall time and failures
 */
export async function runLoad(total: number, inflight: number, op: () => Promise<string | undefined>): Promise<LoadRun> {
  const latencies: number[] = [];
  const run: LoadRun = { latencies, wallMs: 0, failures: 0 };
  let issued = 0;
  const worker = async (): Promise<void> => {
    while (issued < total) {
      issued++;
      const t0 = now();
      const problem = await op();
      latencies.push(now() - t0);
      if (problem !== undefined) {
        run.failures++;
        run.firstFailure ??= problem;
      }
    }
  };
  const t0 = now();
  await Promise.all(Array.from({ length: Math.min(inflight, total) }, worker));
  run.wallMs = now() - t0;
  return run;
}

let clockTicks: number | undefined;

function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * @param pid a process
 * @returns its own user + system CPU time in ms (children not included), 0 when gone
 */
export function processCpuMs(pid: number): number {
  if (pid === process.pid) {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after "pid (comm) ": state(0) ppid(1) … utime(11) stime(12)
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond();
  } catch {
    return 0;
  }
}

/**
 * Measures CPU time of some processes across `work`.
 * @param pids processes by role (e.g. `{ client: process.pid, serve: 123, server: 456 }`)
 * @param work what to measure
 * @returns work's result and the CPU ms each process spent meanwhile
 */
export async function withCpu<T, K extends string>(pids: Record<K, number>, work: () => Promise<T>): Promise<{ value: T; cpuMs: Record<K, number> }> {
  const roles = Object.keys(pids) as K[];
  const before = roles.map((role) => processCpuMs(pids[role]));
  const value = await work();
  const cpuMs = {} as Record<K, number>;
  roles.forEach((role, i) => {
    cpuMs[role] = processCpuMs(pids[role]) - (before[i] as number);
  });
  return { value, cpuMs };
}
