#!/usr/bin/env node
/**
 * The `dsh-lsp-actions` executable (package `bin`, built to `lib/cli/main.js`).
 *
 * Checks the Node version first — the harness needs Node >= 22.19 — and only then loads the
 * command line, so an older Node gets a clear message and exit code 2 instead of a crash
 * inside a dependency. Exits with the command's code once its output is flushed.
 */
import * as nodeModule from 'node:module';
import { MIN_NODE, nodeVersionSupported } from './package-info.ts';

/**
 * Turns on Node's on-disk compile cache (its default directory under the temp dir) for this
 * process and, through `NODE_COMPILE_CACHE`, for the Node processes it starts — the language
 * servers and the tsconfig reader load megabytes of JavaScript on every run, and a cached compile
 * shortens each start. `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as for any Node program.
 */
function useCompileCache(): void {
  // A namespace import: a Node without `enableCompileCache` must still reach the version check.
  const enable = (nodeModule as { enableCompileCache?: () => { directory?: string } }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    const { directory } = enable();
    if (directory !== undefined && process.env.NODE_COMPILE_CACHE === undefined) process.env.NODE_COMPILE_CACHE = directory;
  } catch {
    // A cache that cannot be set up only costs speed.
  }
}

/**
 * Runs the command line on this process and exits with its code.
 * @returns never resolves normally; the process exits
 */
export async function main(): Promise<void> {
  if (!nodeVersionSupported(process.versions.node)) {
    process.stderr.write(
      `error: dsh-lsp-actions needs Node ${MIN_NODE.major}.${MIN_NODE.minor} or newer; this is Node ${process.versions.node} (${process.execPath})\n`,
    );
    process.exit(2);
  }
  useCompileCache();
  const { runCli } = await import('./run-cli.ts');
  const code = await runCli(process.argv.slice(2), {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    ownsProcess: true,
  });
  process.exit(code);
}

await main();
