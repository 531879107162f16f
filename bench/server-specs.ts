/**
 * The servers the benchmark drives, described once for all three clients: how the floor and
 * transient clients spawn them, and the engine configuration that runs the same binary.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { resolveConfig, type Config, type ServerConfig } from '../src/config.ts';
import { EMBEDDED_TYPESCRIPT_ID, withEmbeddedServers } from '../src/presets/embedded-typescript.ts';
import { TS7_TSC, TSLS_CLI, TSLS_INIT_OPTIONS } from '../tests/support/servers.ts';

const require = createRequire(import.meta.url);

/** One server under test. */
export interface ServerSpec {
  key: 'tsls' | 'ts7';
  /** Heading of its results table. */
  title: string;
  /** Spawn command of the raw and transient clients (the engine runs the same binary). */
  argv: string[];
  initializationOptions?: Record<string, unknown>;
  /** How the server delivers diagnostics to a plain client (the floor and transient clients). */
  diagnostics: 'push' | 'pull';
  /**
   * How the engine gets them with the default config: by pull, by the tsserver passthrough
   * (typescript-language-server: tsserver's own diagnostics for the version just sent, decision
   * 0001), or from pushes plus the settle rules.
   */
  engineDiagnostics: 'pull' | 'passthrough' | 'push';
  /** The server publishes `[]` for a document that had diagnostics when it is closed. */
  clearsOnClose: boolean;
  /** Engine server id. */
  serverId: string;
  /** Server versions for the report. */
  versions: Record<string, string>;
  /**
   * @param settleMs overrides `diagnosticsSettleMs` (default: the config default)
   * @returns the engine's validated config
   */
  engineConfig(settleMs?: number): Config;
}

function versionOf(packageJson: string): string {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

function withSettle(config: Config, serverId: string, settleMs: number | undefined): Config {
  const entry = config.servers[serverId];
  if (settleMs === undefined || entry === undefined) return config;
  const patched: ServerConfig = { ...entry, diagnosticsSettleMs: settleMs };
  return { ...config, servers: { ...config.servers, [serverId]: patched } };
}

/**
 * @returns typescript-language-server 5.3.0 on TypeScript 5.9.3: the engine's embedded default.
 *   The engine reads diagnostics through the tsserver passthrough; the floor and transient
 *   clients read the server's pushes.
 */
export function tslsSpec(): ServerSpec {
  const tslsVersion = versionOf(require.resolve('typescript-language-server/package.json'));
  const tsVersion = versionOf(require.resolve('typescript/package.json'));
  return {
    key: 'tsls',
    title: `typescript-language-server ${tslsVersion} (TypeScript ${tsVersion}) — the embedded default: the engine by tsserver passthrough, the floor and transient clients by pushes`,
    argv: [process.execPath, TSLS_CLI, '--stdio'],
    initializationOptions: { ...TSLS_INIT_OPTIONS },
    diagnostics: 'push',
    engineDiagnostics: 'passthrough',
    clearsOnClose: true,
    serverId: EMBEDDED_TYPESCRIPT_ID,
    versions: { 'typescript-language-server': tslsVersion, typescript: tsVersion },
    engineConfig(settleMs) {
      const raw = resolveConfig({});
      return withSettle({ ...raw, servers: withEmbeddedServers(raw) }, EMBEDDED_TYPESCRIPT_ID, settleMs);
    },
  };
}

/** @returns TypeScript 7 native `tsc --lsp --stdio` (pull diagnostics, utf-8 positions). */
export function ts7Spec(): ServerSpec {
  const version = versionOf(join(dirname(dirname(dirname(TS7_TSC))), '..', 'typescript7', 'package.json'));
  return {
    key: 'ts7',
    title: `TypeScript ${version} native \`tsc --lsp --stdio\`, pull diagnostics`,
    argv: [TS7_TSC, '--lsp', '--stdio'],
    diagnostics: 'pull',
    engineDiagnostics: 'pull',
    clearsOnClose: false,
    serverId: 'ts7',
    versions: { 'typescript (tsc --lsp)': version },
    engineConfig(settleMs) {
      const config = resolveConfig({
        embeddedTypeScript: false,
        servers: {
          ts7: { command: TS7_TSC, args: ['--lsp', '--stdio'], extensionToLanguage: { '.ts': 'typescript' }, rootMarkers: ['tsconfig.json'] },
        },
      });
      return withSettle(config, 'ts7', settleMs);
    },
  };
}
