/**
 * The shipped default composition: the real harness services a headless `dsh-lsp-actions`
 * process needs, plus this plugin, as cordis Loader entries (the rows a `cordis.yml` holds).
 *
 * | id | plugin | why |
 * |---|---|---|
 * | system-prompt | `@deepseek-ai/dsh-system-prompt` | `dsh-tools` injects `systemPrompt` |
 * | tools | `@deepseek-ai/dsh-tools` | the plugin registers its `lsp_*` tools (`inject: tools`) |
 * | sandbox-policy | `@deepseek-ai/dsh-sandbox-policy` | `{mode, workspaceRoot}`: the permission preset of editor writes |
 * | fs | `@deepseek-ai/dsh-fs-sandbox` | `ctx.fs` with the sandbox fence (extends `dsh-fs-local`; `{cwd}`) |
 * | subprocess | `@deepseek-ai/dsh-subprocess-local` | `ctx.subprocess`: language servers are spawned through it |
 * | fs-observation-policy | `@deepseek-ai/dsh-fs-observation-policy` | read-before-write guard on `fs/write-intent` |
 * | tool-call-timeout-policy | `@deepseek-ai/dsh-tool-call-timeout-policy` | enforces tool `timeoutMs` |
 * | lsp-actions | this package | `editor.enabled` for `serve`; never for `check` (stdout is the report) |
 *
 * Plugin names are resolved here, from this package, to absolute `file:` URLs, so the Loader
 * imports exactly the copies this package was installed with, whatever its base URL.
 */
import type { Config, ServerConfig } from '../config.ts';
import { yaml } from './lazy-yaml.ts';
import { pluginEntryUrl } from './package-info.ts';
import type { SandboxModeName } from './parse-args.ts';

/** One Loader entry (a `cordis.yml` row). */
export interface CompositionEntry {
  id: string;
  /** Module specifier; here always an absolute `file:` URL. */
  name: string;
  config?: Record<string, unknown>;
}

/** What varies between `serve` and `check`, and between workspaces. */
export interface CompositionOptions {
  /** Absolute workspace root: sandbox `workspaceRoot` and the fs `cwd`. */
  workspace: string;
  /** Standing sandbox mode of writes made through this process. */
  sandbox: SandboxModeName;
  /** The complete server table (embedded + detected + overrides). */
  servers: Record<string, ServerConfig>;
  /** Serve the editor protocol on stdio (only `serve`). */
  editor: boolean;
  /** Further plugin config (e.g. `diagnosticsWaitMs`). */
  plugin?: Partial<Omit<Config, 'servers' | 'editor'>>;
}

/** The harness packages of the default composition, in row order. */
export const HARNESS_ROWS: ReadonlyArray<{ id: string; package: string }> = [
  { id: 'system-prompt', package: '@deepseek-ai/dsh-system-prompt' },
  { id: 'tools', package: '@deepseek-ai/dsh-tools' },
  { id: 'sandbox-policy', package: '@deepseek-ai/dsh-sandbox-policy' },
  { id: 'fs', package: '@deepseek-ai/dsh-fs-sandbox' },
  { id: 'subprocess', package: '@deepseek-ai/dsh-subprocess-local' },
  { id: 'fs-observation-policy', package: '@deepseek-ai/dsh-fs-observation-policy' },
  { id: 'tool-call-timeout-policy', package: '@deepseek-ai/dsh-tool-call-timeout-policy' },
];

/** Id of this plugin's row. */
export const PLUGIN_ROW_ID = 'lsp-actions';

/**
 * @param specifier a package name
 * @returns its entry as an absolute `file:` URL, resolved from this package
 * @throws Error naming the package when it is not installed
 */
export function resolvePluginName(specifier: string): string {
  try {
    return import.meta.resolve(specifier);
  } catch (error) {
    throw new Error(`cannot find the harness package ${specifier}; install it next to dsh-lsp-actions`, { cause: error });
  }
}

/**
 * @param options workspace, sandbox mode, servers, editor switch
 * @returns the Loader entries, in row order
 */
export function defaultComposition(options: CompositionOptions): CompositionEntry[] {
  const configs: Record<string, Record<string, unknown>> = {
    'sandbox-policy': { mode: options.sandbox, workspaceRoot: options.workspace },
    fs: { cwd: options.workspace },
  };
  const rows: CompositionEntry[] = HARNESS_ROWS.map(({ id, package: pkg }) => ({
    id,
    name: resolvePluginName(pkg),
    ...(configs[id] ? { config: configs[id] } : {}),
  }));
  rows.push({
    id: PLUGIN_ROW_ID,
    name: pluginEntryUrl(),
    config: {
      ...options.plugin,
      // The CLI owns the whole table (the embedded server is in it unless a user dropped it).
      embeddedTypeScript: false,
      // the CLI runs on the local disk: outside changes to unopened files are watched for
      watchWorkspace: true,
      servers: options.servers,
      editor: { enabled: options.editor },
    },
  });
  return rows;
}

/**
 * Renders entries as a `cordis.yml` a user can save, edit and run with `--config`.
 * @param entries the composition
 * @param comment a header comment (without `#`)
 * @returns YAML text
 */
export function compositionToYaml(entries: readonly CompositionEntry[], comment: string): string {
  const header = comment
    .split('\n')
    .map((line) => `# ${line}`.trimEnd())
    .join('\n');
  return `${header}\n${yaml().stringify(entries, { lineWidth: 0 })}`;
}
