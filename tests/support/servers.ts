/**
 * Where the pinned real language servers live for tests and benchmarks
 * (installed by `scripts/install-test-servers.mjs` into tests/servers, and the project's own
 * typescript-language-server + typescript 5.9.3 dependencies).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedTypeScriptServer } from '../../src/presets/embedded-typescript.ts';

const serversDir = join(import.meta.dirname, '..', 'servers', 'node_modules');

const embedded = embeddedTypeScriptServer();

/** typescript-language-server 5.3.0 entry script (run with this Node), as the embedded preset runs it. */
export const TSLS_CLI: string = embedded.args[0] as string;
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

/** The embedded preset's ts-ls settings: pinned TypeScript 5.9.3, no type acquisition, no syntax server, inlay hints on. */
export const TSLS_INIT_OPTIONS: Record<string, unknown> = embedded.initializationOptions ?? {};

/** typescript-language-server as the embedded preset runs it, for `.ts` files under a tsconfig. */
export const TSLS_ENTRY = {
  command: process.execPath,
  args: [TSLS_CLI, '--stdio'],
  extensionToLanguage: { '.ts': 'typescript' },
  rootMarkers: ['tsconfig.json'],
  initializationOptions: TSLS_INIT_OPTIONS,
};
