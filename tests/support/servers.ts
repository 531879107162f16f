/**
 * Where the pinned real language servers live for tests and benchmarks
 * (installed by `scripts/install-test-servers.mjs` into tests/servers, and the project's own
 * typescript-language-server + typescript 5.9.3 dependencies).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const serversDir = join(import.meta.dirname, '..', 'servers', 'node_modules');

/** typescript-language-server 5.3.0 entry script (run with this Node). */
export const TSLS_CLI: string = require.resolve('typescript-language-server/lib/cli.mjs');
/** tsserver.js of the project's TypeScript 5.9.3, to pin ts-ls to it. */
export const TSSERVER_PATH: string = join(dirname(require.resolve('typescript/package.json')), 'lib', 'tsserver.js');
/** TypeScript 7 native binary: `tsc --lsp --stdio` (pull diagnostics, utf-8 positions). */
export const TS7_TSC: string = join(serversDir, '@typescript', 'typescript-linux-x64', 'lib', 'tsc');
/** pyright-langserver (pull diagnostics registered dynamically). */
export const PYRIGHT: string = join(serversDir, 'pyright', 'langserver.index.js');
/** dockerfile-language-server-nodejs (push diagnostics). */
export const DOCKER_LS: string = join(serversDir, 'dockerfile-language-server-nodejs', 'bin', 'docker-langserver');

/** @returns whether the test servers were installed (`npm run test:servers`). */
export function testServersInstalled(): boolean {
  return existsSync(TS7_TSC) && existsSync(PYRIGHT) && existsSync(DOCKER_LS);
}

/** ts-ls settings measured to halve its footprint and skip network type acquisition. */
export const TSLS_INIT_OPTIONS = {
  disableAutomaticTypingAcquisition: true,
  tsserver: { useSyntaxServer: 'never', path: TSSERVER_PATH },
} as const;
