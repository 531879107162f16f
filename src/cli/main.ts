#!/usr/bin/env node
/**
 * The `dsh-lsp-actions` executable (package `bin`, built to `lib/cli/main.js`).
 *
 * Checks the Node version first — the harness needs Node >= 22.19 — and only then loads the
 * command line, so an older Node gets a clear message and exit code 2 instead of a crash
 * inside a dependency. Exits with the command's code once its output is flushed.
 */
import { MIN_NODE, nodeVersionSupported } from './package-info.ts';

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
