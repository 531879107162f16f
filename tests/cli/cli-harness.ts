/**
 * Helpers for CLI tests: run the command line in-process with captured streams, spawn the
 * real executable, and write a cordis.yml that mounts the fake plugin next to real harness rows.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { runCli } from '../../src/cli/run-cli.ts';

/** Repository root. */
export const REPO = join(import.meta.dirname, '..', '..');
/** The fake plugin fixture. */
export const FAKE_PLUGIN = join(import.meta.dirname, 'fixtures', 'fake-lsp-actions.ts');

/** What a run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * @param argv arguments after the executable
 * @param cwd working directory
 * @param env environment
 * @returns exit code and output
 */
export async function runInProcess(argv: string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const code = await runCli(argv, { stdin: new PassThrough(), stdout, stderr, env: { PATH: '', ...env }, cwd });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

/**
 * Spawns `node <script> …argv` and collects its output.
 * @param script the CLI entry (`src/cli/main.ts` or `lib/cli/main.js`)
 * @param argv arguments
 * @param options cwd, env, stdin text (stdin is closed after it), timeout
 * @returns exit code and output
 */
export function spawnCli(
  script: string,
  argv: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; execPath?: string },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.execPath ?? process.execPath, [script, ...argv], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${argv.join(' ')} timed out; stderr: ${Buffer.concat(err).toString('utf8')}`));
    }, options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Writes a cordis.yml with the local subprocess provider and the fake plugin.
 * @param path where to write it
 * @param fakeConfig the fake plugin's config
 */
export function writeFakeComposition(path: string, fakeConfig: Record<string, unknown> = {}): void {
  const rows = [
    { id: 'subprocess', name: import.meta.resolve('@deepseek-ai/dsh-subprocess-local') },
    { id: 'lsp-actions', name: pathToFileURL(FAKE_PLUGIN).href, config: fakeConfig },
  ];
  writeFileSync(path, stringify(rows));
}

/**
 * @param pid a process id
 * @returns whether the process is alive
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    // ESRCH: gone.
    return false;
  }
  try {
    // A zombie has exited and only waits to be reaped by its (re)parent; it holds no resources.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // No /proc entry: gone between the two checks.
    return false;
  }
}
