/**
 * Test fixture for engine tests: a fresh temp workspace, a config with fake or real servers,
 * an engine on the REAL harness subprocess/fs services, and access to its live clients.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolveConfig, type Config, type ServerConfig } from '../../src/config.ts';
import type { LanguageClient } from '../../src/lsp/language-client.ts';
import { LspEngine, type LspEngineDeps } from '../../src/lsp/lsp-engine.ts';
import type { ServerPool } from '../../src/lsp/server-pool.ts';
import { fakeServerCommand, type FakeScenario } from '../fixtures/fake-lsp-scenario.ts';
import { createHarnessServices, type HarnessServices } from '../support/harness-services.ts';

/** A temp workspace. */
export interface Workspace {
  root: string;
  /** Absolute path of a workspace-relative file. */
  path(rel: string): string;
  write(rel: string, text: string): Promise<string>;
  remove(): Promise<void>;
}

/** @returns a fresh workspace under the OS temp dir */
export async function makeWorkspace(prefix = 'lsp-engine-'): Promise<Workspace> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  return {
    root,
    path: (rel) => join(root, rel),
    async write(rel, text) {
      const path = join(root, rel);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
      return path;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * @param scenario fake server scenario
 * @param entry overrides for the server entry
 * @returns a raw server entry running the fake on `.txt` files
 */
export function fakeEntry(scenario: FakeScenario = {}, entry: Partial<ServerConfig> = {}): Record<string, unknown> {
  const { command, args } = fakeServerCommand(scenario);
  return { command, args, extensionToLanguage: { '.txt': 'plaintext' }, ...entry };
}

/**
 * @param servers raw `servers` table
 * @param rest other config keys
 * @returns a validated config
 */
export function makeConfig(servers: Record<string, Record<string, unknown>>, rest: Partial<Config> = {}): Config {
  return resolveConfig({ servers, ...rest });
}

/** An engine over real harness services, with test access to its pool. */
export interface EngineFixture {
  engine: LspEngine;
  services: HarnessServices;
  logs: string[];
  /** Ready clients (test access). */
  clients(): LanguageClient[];
  /** The ready client of `serverId`. */
  client(serverId: string): LanguageClient;
  close(): Promise<void>;
}

/**
 * @param config engine config
 * @param extra optional engine deps (a workspace watcher, a forced diagnostics strategy)
 * @returns the engine and services; `close()` disposes both
 */
export async function startEngine(config: Config, extra: Pick<LspEngineDeps, 'watch' | 'diagnosticsStrategy'> = {}): Promise<EngineFixture> {
  const services = await createHarnessServices();
  const logs: string[] = [];
  const engine = new LspEngine({
    ...extra,
    config,
    subprocess: services.subprocess,
    fs: services.fs,
    log: (level, message) => {
      logs.push(`${level}: ${message}`);
      if (process.env.LSP_TEST_LOG) console.error(`[${level}] ${message}`);
    },
  });
  const pool = (): ServerPool => (engine as unknown as { pool: ServerPool }).pool;
  return {
    engine,
    services,
    logs,
    clients: () => pool().clients(),
    client(serverId) {
      const found = pool().clients().find((c) => c.serverId === serverId);
      if (found === undefined) throw new Error(`no ready client ${serverId}`);
      return found;
    },
    async close() {
      await engine.dispose();
      await services.dispose();
    },
  };
}

/**
 * @param pid a process id
 * @returns whether it is still alive (not a zombie)
 */
export async function processAlive(pid: number): Promise<boolean> {
  try {
    const { readFile } = await import('node:fs/promises');
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    // ENOENT: no such process
    return false;
  }
}
