/** Facts about the machine and the run, for the report. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';

/** Machine facts at one moment. */
export interface MachineFacts {
  cpuCount: number;
  cpuModel: string;
  memoryGiB: number;
  kernel: string;
  node: string;
  /** 1, 5 and 15 minute load averages. */
  load: [number, number, number];
  commit: string;
  date: string;
}

/** @returns the facts now */
export function machineFacts(): MachineFacts {
  const [l1 = 0, l5 = 0, l15 = 0] = loadavg();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // not a checkout
  }
  return {
    cpuCount: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: totalmem() / 1024 ** 3,
    kernel: release(),
    node: process.version,
    load: [l1, l5, l15],
    commit,
    date: new Date().toISOString().slice(0, 10),
  };
}

/**
 * @param load load averages
 * @returns `1.23 / 1.00 / 0.80`
 */
export function fmtLoad(load: readonly number[]): string {
  return load.map((l) => l.toFixed(2)).join(' / ');
}
