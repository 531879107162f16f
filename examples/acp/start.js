#!/usr/bin/env node
// Boots cordis.yml (or the file named by the first argument) through the cordis Loader, as
// @deepseek-ai/cordis/bin.js does, and adds what an ACP client needs of its agent process:
//   - when the client closes stdin, every agent, language server and service is disposed and the
//     process exits 0 (bin.js keeps running);
//   - SIGINT / SIGTERM dispose the same way and exit 130 / 143;
//   - a row that fails to load or activate is reported on stderr and the process exits 2, instead
//     of serving a composition with a piece missing.
// stdout belongs to the ACP frames: this script writes only to stderr.
import { Context } from '@deepseek-ai/cordis';
import Loader from '@deepseek-ai/cordis-plugin-loader';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** cordis FiberState.ACTIVE (a const enum, absent at run time). */
const ACTIVE = 2;
/** How long disposal may take before the process exits anyway. */
const DISPOSE_LIMIT_MS = 15_000;

const here = dirname(fileURLToPath(import.meta.url));
const configFile = resolve(here, process.argv[2] ?? 'cordis.yml');
const ctx = new Context();
ctx.baseUrl = `${pathToFileURL(dirname(configFile)).href}/`;

let stopping;
/** Disposes the whole composition once, then exits with `code`. */
function stop(code, why) {
  stopping ??= (async () => {
    process.stderr.write(`acp-agent: ${why}; shutting down\n`);
    const guard = setTimeout(() => {
      process.stderr.write(`acp-agent: disposal did not finish within ${DISPOSE_LIMIT_MS} ms\n`);
      process.exit(code === 0 ? 1 : code);
    }, DISPOSE_LIMIT_MS);
    try {
      await ctx.fiber.dispose();
    } catch (error) {
      process.stderr.write(`acp-agent: disposal failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      code = code === 0 ? 1 : code;
    }
    clearTimeout(guard);
    process.exit(code);
  })();
  return stopping;
}

process.stdin.once('end', () => void stop(0, 'stdin closed'));
process.stdin.once('close', () => void stop(0, 'stdin closed'));
process.once('SIGINT', () => void stop(130, 'SIGINT'));
process.once('SIGTERM', () => void stop(143, 'SIGTERM'));

try {
  await ctx.plugin(Loader);
  await ctx.loader.create({ name: '@deepseek-ai/cordis-plugin-include', config: { path: configFile } });
  await ctx.loader.await();
  const broken = [...ctx.loader.entries()].filter((entry) => !entry.disabled && entry.fiber?.state !== ACTIVE);
  if (broken.length > 0) {
    throw new Error(`rows not active: ${broken.map((entry) => `${entry.id} (${entry.options.name})`).join(', ')}`);
  }
} catch (error) {
  // A shutdown that began while rows were still loading (end of input, a signal, or a protocol
  // server disposing the root itself, as the SDK server's `shutdown` does) is not a boot failure.
  if (stopping === undefined && ctx.fiber.state === ACTIVE) {
    process.stderr.write(`acp-agent: ${configFile} did not boot: ${error instanceof Error ? error.stack : String(error)}\n`);
    await stop(2, 'boot failed');
  }
}
