#!/usr/bin/env node
/**
 * The `dsh-lsp-actions` executable (package `bin`, built to `lib/cli/main.js`).
 *
 * Checks the Node version first — the harness needs Node >= 22.19 — and only then loads the
 * command line, so an older Node gets a clear message and exit code 2 instead of a crash
 * inside a dependency; `--help` and `--version` answer on any Node. Exits with the command's
 * code once its output is flushed.
 *
 * This file and what it imports statically (`package-info.ts`, `help-text.ts`, `old-node.ts`)
 * must load on any Node that runs ES modules: Node built-ins only, no newer syntax or APIs
 * (`tests/cli/old-node.e2e.ts` runs them on the machine's older Node).
 */
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpText } from './help-text.ts';
import { bundledNode, oldNodeAnswer, oldNodeMessage } from './old-node.ts';
import { MIN_NODE, nodeVersionSupported, PACKAGE_VERSION } from './package-info.ts';

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
 * On a Node older than {@link MIN_NODE}: answers `--help` / `--version` (exit 0), and refuses
 * every other command (exit 2) with the line that runs it on Node 22.
 * @param argv arguments after the script
 * @returns never: the process exits
 */
function runOnOldNode(argv: readonly string[]): never {
  const answer = oldNodeAnswer(argv);
  if (answer.kind === 'help') {
    process.stdout.write(helpText(answer.topic));
    process.exit(0);
  }
  if (answer.kind === 'version') {
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    process.exit(0);
  }
  const script = fileURLToPath(import.meta.url);
  const packageRoot = join(script, '..', '..', '..'); // lib/cli/main.js → the package folder
  const message = oldNodeMessage({
    version: process.versions.node,
    execPath: process.execPath,
    script,
    argv,
    packageRoot,
    bundled: bundledNode(packageRoot),
    minimum: `${MIN_NODE.major}.${MIN_NODE.minor}`,
  });
  process.stderr.write(message);
  process.exit(2);
}

/**
 * Runs the command line on this process and exits with its code.
 * @returns never resolves normally; the process exits
 */
export async function main(): Promise<void> {
  if (!nodeVersionSupported(process.versions.node)) runOnOldNode(process.argv.slice(2));
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
