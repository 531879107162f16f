/**
 * Shared steps of the real-server e2e tests: process-tree inspection through /proc, and the
 * standard session (cold diagnostics, edit, parallel requests, kill + restart, dispose).
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import type { FileDiagnostics } from '../../src/lsp/engine-types.ts';
import { processAlive, type EngineFixture } from './engine-fixture.ts';

/**
 * @param root a process id
 * @returns it and every live descendant (by walking /proc ppid links)
 */
export async function processTree(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // the process exited while we listed /proc
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of parents) if (ppid === tree[i] && !tree.includes(pid)) tree.push(pid);
  }
  return tree;
}

/**
 * @param f the engine fixture
 * @returns pids of every live server process tree
 */
export async function serverProcesses(f: EngineFixture): Promise<number[]> {
  const roots = f.engine.liveServers().map((s) => s.pid ?? -1).filter((p) => p > 0);
  return (await Promise.all(roots.map(processTree))).flat();
}

/**
 * @param pids processes that must be gone
 */
export async function assertAllGone(pids: number[]): Promise<void> {
  for (const pid of pids) assert.equal(await processAlive(pid), false, `process ${pid} survived dispose`);
}

/**
 * @param d diagnostics
 * @param text the document text (UTF-16)
 * @returns `line:col text-under-range code` for each diagnostic
 */
export function describeDiagnostics(d: FileDiagnostics, text: string): string[] {
  const lines = text.split(/\r?\n/);
  return d.diagnostics.map((x) => {
    const line = lines[x.range.start.line] ?? '';
    const under = x.range.start.line === x.range.end.line ? line.slice(x.range.start.character, x.range.end.character) : '…';
    return `${x.range.start.line}:${x.range.start.character} ${under} ${String(x.code)}`;
  });
}

/**
 * Kills the live server of `serverId` with SIGKILL and waits until the engine noticed.
 * @param f the engine fixture
 * @param serverId which server
 * @returns the killed pid
 */
export async function killServer(f: EngineFixture, serverId: string): Promise<number> {
  const client = f.client(serverId);
  const pid = client.pid ?? -1;
  const noticed = new Promise<void>((resolve) => client.onDidFail(() => resolve()));
  process.kill(pid, 'SIGKILL');
  await noticed;
  return pid;
}
