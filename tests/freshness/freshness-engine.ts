/**
 * Engines for the freshness regression tests: real servers (typescript-language-server with
 * the embedded preset's settings, pyright) on the REAL harness services, optionally with the
 * push strategy forced (the fallback every push-only server gets).
 */
import { resolveConfig } from '../../src/config.ts';
import { LspEngine } from '../../src/lsp/lsp-engine.ts';
import { createHarnessServices } from '../support/harness-services.ts';
import { PYRIGHT, TSLS_ENTRY } from '../support/servers.ts';

/** An engine and its disposer. */
export interface FreshnessEngine {
  engine: LspEngine;
  close(): Promise<void>;
}

export { TSLS_ENTRY };

/** pyright (pull diagnostics, registered dynamically). */
export const PYRIGHT_ENTRY = {
  command: process.execPath,
  args: [PYRIGHT, '--stdio'],
  extensionToLanguage: { '.py': 'python' },
  rootMarkers: ['pyrightconfig.json', 'pyproject.toml'],
};

/**
 * @param servers server entries by id
 * @param opts `diagnosticsStrategy: 'push'` forces the push fallback
 * @returns the engine on real harness services
 */
export async function startFreshnessEngine(servers: Record<string, Record<string, unknown>>, opts: { diagnosticsStrategy?: 'auto' | 'push' } = {}): Promise<FreshnessEngine> {
  const services = await createHarnessServices();
  const config = resolveConfig({ servers });
  const engine = new LspEngine({
    config,
    subprocess: services.subprocess,
    fs: services.fs,
    ...(opts.diagnosticsStrategy === undefined ? {} : { diagnosticsStrategy: opts.diagnosticsStrategy }),
    log: (level, message) => {
      if (process.env.LSP_TEST_LOG) console.error(`[${level}] ${message}`);
    },
  });
  return {
    engine,
    async close() {
      await engine.dispose();
      await services.dispose();
    },
  };
}
