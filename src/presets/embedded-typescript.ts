import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ServerConfig } from '../config.ts';
import { ServerConfig as ServerConfigSchema } from '../config.ts';

const require = createRequire(import.meta.url);

/** The files the TypeScript/JavaScript server handles, by extension. */
export const TYPESCRIPT_EXTENSIONS = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.d.ts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
} as const;

/** Server id of the embedded TypeScript/JavaScript server. */
export const EMBEDDED_TYPESCRIPT_ID = 'typescript';

/**
 * tsserver preferences that turn inlay hints on. typescript-language-server answers
 * `textDocument/inlayHint` with nothing unless at least one of these is enabled; it reads them
 * from `initializationOptions.preferences` (merged into every file's tsserver `configure`), and a
 * workspace's `typescript.inlayHints.*` settings still override them per file. Parameter names
 * are shown for every argument except one whose text already is the parameter's name, and a
 * variable's type only where its name does not already say it.
 */
export const EMBEDDED_TYPESCRIPT_INLAY_HINT_PREFERENCES = {
  includeInlayParameterNameHints: 'all',
  includeInlayParameterNameHintsWhenArgumentMatchesName: false,
  includeInlayFunctionParameterTypeHints: true,
  includeInlayVariableTypeHints: true,
  includeInlayVariableTypeHintsWhenTypeMatchesName: false,
  includeInlayPropertyDeclarationTypeHints: true,
  includeInlayFunctionLikeReturnTypeHints: true,
  includeInlayEnumMemberValueHints: true,
} as const;

/**
 * The embedded TypeScript/JavaScript server: this package's own typescript-language-server
 * 5.3.0, run by the current Node, pinned to this package's TypeScript 5.9.3 (a workspace's
 * TypeScript 7 has no tsserver and would break it), with automatic type acquisition (network)
 * and the separate syntax server turned off (measured: 490 MB / 4 processes → 236 MB / 2),
 * inlay hints enabled ({@link EMBEDDED_TYPESCRIPT_INLAY_HINT_PREFERENCES}), and oversized
 * TypeScript sources kept from tsserver by a preloaded guard ({@link largeSourceGuardOption}).
 * @returns a complete, validated server entry
 */
export function embeddedTypeScriptServer(): ServerConfig {
  const cli = require.resolve('typescript-language-server/lib/cli.mjs');
  const tsserver = join(dirname(require.resolve('typescript/package.json')), 'lib', 'tsserver.js');
  return ServerConfigSchema({
    command: process.execPath,
    args: [cli, '--stdio'],
    extensionToLanguage: { ...TYPESCRIPT_EXTENSIONS },
    rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
    env: { NODE_OPTIONS: largeSourceGuardOption() },
    initializationOptions: {
      disableAutomaticTypingAcquisition: true,
      tsserver: { useSyntaxServer: 'never', path: tsserver },
      preferences: { ...EMBEDDED_TYPESCRIPT_INLAY_HINT_PREFERENCES },
    },
  } as unknown as ServerConfig);
}

/**
 * `NODE_OPTIONS` that preload src/presets/large-source-guard (tsserver sees a TypeScript source
 * over `DSH_LSP_MAX_SOURCE_BYTES`, default 8 MiB, as empty; see that module).
 * @returns `--import <file URL of the guard>`, the `.ts` source when running from src
 */
export function largeSourceGuardOption(): string {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return `--import ${new URL(`./large-source-guard${extension}`, import.meta.url).href}`;
}

/**
 * `NODE_OPTIONS` that preload src/presets/solution-references (`check` only: tsserver reads the
 * projects a solution builds before a program from their sources; see that module).
 * @returns `--import <file URL of the preload>`, the `.ts` source when running from src
 */
export function solutionReferencesOption(): string {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return `--import ${new URL(`./solution-references${extension}`, import.meta.url).href}`;
}

/**
 * @param config the plugin config
 * @returns the servers table with the embedded TypeScript server added when enabled and not overridden
 */
export function withEmbeddedServers(config: {
  servers: Record<string, ServerConfig>;
  embeddedTypeScript: boolean;
}): Record<string, ServerConfig> {
  if (!config.embeddedTypeScript || EMBEDDED_TYPESCRIPT_ID in config.servers) return config.servers;
  return { [EMBEDDED_TYPESCRIPT_ID]: embeddedTypeScriptServer(), ...config.servers };
}
