/**
 * A real `dsh-lsp-actions serve` process (built `lib/cli/main.js`) as an editor spawns it, for
 * the reliability tests: send frames, await answers by id, inspect its process tree via /proc.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO } from './cli-harness.ts';

/** The built executable. */
export const MAIN = join(REPO, 'lib', 'cli', 'main.js');

/** @returns pids of every live descendant of `root` (Linux /proc) */
export function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process exited while we looked
    }
  }
  const out: number[] = [];
  for (let i = -1; i < out.length; i++) {
    const parent = i === -1 ? root : (out[i] as number);
    for (const [child, ppid] of parents) if (ppid === parent && !out.includes(child)) out.push(child);
  }
  return out;
}

/** @returns whether the pid is a live (non-zombie) process */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** @returns resident set size of the pid in KiB (0 when gone) */
export function rssKiB(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Polls until `condition` holds, failing after `ms`. */
export async function until(what: string, condition: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(50);
  }
}

/** A spawned serve process. */
export class ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /**
   * @param args arguments after `serve`
   * @param options `readStdout: false` leaves stdout unread (a client that never reads)
   */
  constructor(args: string[], options: { readStdout?: boolean; cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
    if (!existsSync(MAIN)) throw new Error('run `npm run build` first: lib/cli/main.js is missing');
    this.child = spawn(process.execPath, [MAIN, 'serve', ...args], {
      cwd: options.cwd ?? REPO,
      env: { ...process.env, PATH: join(process.execPath, '..'), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (options.readStdout !== false) this.child.stdout.on('data', (chunk: Buffer) => (this.stdout += chunk.toString('utf8')));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({ code, signal })));
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** @returns every frame so far (blank probe lines skipped) */
  frames(): Array<Record<string, any>> {
    return this.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, any>);
  }

  /** @param message one frame */
  send(message: unknown): boolean {
    return this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** @returns the response to `id` */
  async response(id: unknown, ms = 180_000): Promise<Record<string, any>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames().find((frame) => frame['id'] === id && ('result' in frame || 'error' in frame));
      if (found) return found;
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`no response ${String(id)}; stderr: ${this.stderr.slice(-2000)}`);
      await sleep(50);
    }
  }

  /** Runs one action; resolves with its envelope. */
  async run(id: string, action: string, params: unknown): Promise<Record<string, any>> {
    this.send({ jsonrpc: '2.0', id, method: 'lsp.actions.run', params: { action, params, requestId: id } });
    return (await this.response(id))['result'] as Record<string, any>;
  }

  /** Kills the process (and leaves its children to the test's own checks). */
  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}
