import z from '@deepseek-ai/schemastery';

/** Formatting options sent with `textDocument/formatting` (LSP `FormattingOptions`). */
export interface FormattingOptionsConfig {
  tabSize: number;
  insertSpaces: boolean;
  trimTrailingWhitespace?: boolean;
  insertFinalNewline?: boolean;
  trimFinalNewlines?: boolean;
}

/** One language server entry of the `servers` table. */
export interface ServerConfig {
  /** Executable: a bare name looked up on PATH, or an absolute path. Resolved at load. */
  command: string;
  /** Arguments, e.g. `["--stdio"]`. */
  args: string[];
  /** Extra environment for the server process (merged after the harness scrub). */
  env: Record<string, string>;
  /** File extension (with dot, case-insensitive, multi-dot such as `.d.ts` allowed) → LSP languageId. */
  extensionToLanguage: Record<string, string>;
  /** Glob (matched against the workspace-relative path, `/`-separated) → languageId. Checked before extensions. */
  fileGlobs: Record<string, string>;
  /** Files whose nearest ancestor directory (bounded by the workspace root) becomes the server root. */
  rootMarkers: string[];
  /** Sent as `initializationOptions` in `initialize`. */
  initializationOptions?: Record<string, unknown>;
  /** Answers `workspace/configuration`: section name → value (`""` is the whole object). */
  configuration: Record<string, unknown>;
  /** Options for `textDocument/formatting` and `rangeFormatting`. */
  formattingOptions: FormattingOptionsConfig;
  /** How long `initialize` may take. */
  startupTimeoutMs: number;
  /** How long `shutdown` may take before the process is terminated. */
  shutdownTimeoutMs: number;
  /** Grace between SIGTERM and SIGKILL when terminating the process tree. */
  killGraceMs: number;
  /** Stop a server unused for this long; 0 keeps it until dispose. */
  idleTimeoutMs: number;
  /** Largest JSON-RPC message accepted from the server. */
  maxMessageBytes: number;
  /** How much of the server's stderr is kept for error reports. */
  stderrTailBytes: number;
  /** Largest document sent to the server. */
  maxDocumentBytes: number;
  /** Crashes tolerated within `restartWindowMs` before the server is given up on. */
  maxRestarts: number;
  /** The window for `maxRestarts`. */
  restartWindowMs: number;
  /**
   * How long a health probe may wait for the server's answer. A caller that gives up on a request
   * (its deadline, a cancellation) makes the client probe the server; only a probe unanswered for
   * this long — and no other answer meanwhile — counts as the server hanging.
   */
  probeTimeoutMs: number;
  /** Quiet time after a diagnostics push before a pushed result counts as settled. */
  diagnosticsSettleMs: number;
  /**
   * The server answers `textDocument/diagnostic` for a file it was never sent, reading it from
   * disk (measured for TypeScript 7's `tsc --lsp`, whose preset sets it): a batch (`check`) then
   * pulls many files at once without opening them. Default false.
   */
  pullsUnopenedFiles: boolean;
  /**
   * What the process speaks: `lsp` (a language server), or `tsserver` — a TypeScript tsserver
   * (`command` Node, `args` its `tsserver.js` and flags) driven by our own bridge, which serves
   * only document sync, diagnostics and the `typescript.tsserverRequest` passthrough (what
   * `check` needs; `check` sets it for its TypeScript server). Default `lsp`.
   */
  protocol: 'lsp' | 'tsserver';
}

/** Settings of the editor action protocol backend. */
export interface EditorConfig {
  /** Serve `lsp-actions/v1` on this process's stdio. Only a headless backend may claim stdio. */
  enabled: boolean;
  /** Upper bound for one `lsp.actions.run`. */
  requestTimeoutMs: number;
  /** Files kept in the diagnostics cache (LRU). */
  diagnosticsCacheMaxFiles: number;
  /** Longest request line accepted; longer lines are refused without dropping the connection. */
  maxLineBytes: number;
  /** Debounce for unsolicited `diagnostics.updated` events. */
  diagnosticsDebounceMs: number;
  /**
   * Absolute workspace folders served (`serve --workspace`, repeatable): every request's
   * `workspaceRoot` must lie inside one of them. Empty: the fs seam's cwd is the one folder.
   */
  workspaceRoots: string[];
}

/** Lowest severity edit feedback reports as new. */
export type EditFeedbackSeverity = 'error' | 'warning' | 'info' | 'hint';

/** Edit feedback: the language server's verdict appended to every agent write's result. */
export interface EditFeedbackConfig {
  /** Append the verdict to the results of the followed tools. */
  enabled: boolean;
  /** How long one write's result waits for a fresh verdict before saying `diagnostics pending`. */
  waitMs: number;
  /** Problems listed at most (worst first); the rest are counted. */
  maxItems: number;
  /** Characters the appended verdict may hold. */
  maxChars: number;
  /** Lowest severity reported as new (`error` reports errors only). */
  severity: EditFeedbackSeverity;
  /** Tool names whose successful calls get a verdict for the files they wrote. */
  tools: string[];
  /** When an agent reads a file a server handles, check it in the background so a later edit has something to compare with. */
  baselineOnRead: boolean;
  /**
   * Watch the workspace (only where the harness fs is this machine's disk) so files changed by
   * any other tool call — a shell `mv`, a generator — get a verdict too.
   */
  watchChanges: boolean;
}

/** The plugin configuration. */
export interface Config {
  /** Language servers by id. */
  servers: Record<string, ServerConfig>;
  /** Add the package's own typescript-language-server as server `typescript` unless `servers` defines that id. */
  embeddedTypeScript: boolean;
  /** Live server processes at once (LRU stop beyond). */
  maxLiveServers: number;
  /** Documents kept open across all servers (LRU close beyond). */
  maxOpenDocuments: number;
  /** How long a diagnostics call waits for a fresh result before answering `pending`/`stale`. */
  diagnosticsWaitMs: number;
  /** Files a workspace diagnostics call looks at, at most. */
  workspaceMaxFiles: number;
  /** Model tool timeout, enforced by the harness timeout policy. */
  timeoutMs: number;
  /** Characters of rendered text a tool result may hold. */
  maxResultChars: number;
  /** Items (diagnostics, completions, symbols, …) a tool result may list. */
  maxItems: number;
  /** Editor action protocol backend. */
  editor: EditorConfig;
  /** Edit feedback on agent writes. */
  editFeedback: EditFeedbackConfig;
  /**
   * Register the navigation tools (`lsp_definition`, `lsp_references`, `lsp_hover`,
   * `lsp_implementation`, `lsp_call_hierarchy`, `lsp_workspace_symbols`). Set false when the
   * composition mounts the harness's own read-only LSP tool. The editor protocol's actions stay.
   */
  navigation: boolean;
  /**
   * Watch the workspace folders with `node:fs` so changes made by others to files no document is
   * open for reach the servers before the next answer. Only for hosts whose files are the local
   * disk (`serve` and `check` set it); the harness fs seam has no watch.
   */
  watchWorkspace: boolean;
}

const MS_MAX = 2_147_483_647;
const positiveMs = (def: number): z<number> => z.natural().min(1).max(MS_MAX).default(def);

/** Schema of one `servers` entry; defaults fill everything but `command`. */
export const ServerConfig: z<ServerConfig> = z.object({
  command: z.string().required().description('Executable: a bare name on PATH or an absolute path.'),
  args: z.array(z.string()).default([]),
  env: z.dict(z.string()).default({}),
  extensionToLanguage: z.dict(z.string()).default({}),
  fileGlobs: z.dict(z.string()).default({}),
  rootMarkers: z.array(z.string()).default([]),
  initializationOptions: z.dict(z.any()),
  configuration: z.dict(z.any()).default({}),
  formattingOptions: z
    .object({
      tabSize: z.natural().min(1).default(2),
      insertSpaces: z.boolean().default(true),
      trimTrailingWhitespace: z.boolean(),
      insertFinalNewline: z.boolean(),
      trimFinalNewlines: z.boolean(),
    })
    .default({ tabSize: 2, insertSpaces: true } as FormattingOptionsConfig as never),
  startupTimeoutMs: positiveMs(30_000),
  shutdownTimeoutMs: positiveMs(3_000),
  killGraceMs: positiveMs(2_000),
  idleTimeoutMs: z.natural().max(MS_MAX).default(600_000),
  maxMessageBytes: z.natural().min(1024).default(64 * 1024 * 1024),
  stderrTailBytes: z.natural().min(256).default(16 * 1024),
  maxDocumentBytes: z.natural().min(1024).default(4 * 1024 * 1024),
  maxRestarts: z.natural().default(3),
  restartWindowMs: positiveMs(60_000),
  probeTimeoutMs: positiveMs(60_000),
  diagnosticsSettleMs: z.natural().max(60_000).default(300),
  pullsUnopenedFiles: z.boolean().default(false),
  protocol: z.union(['lsp', 'tsserver']).default('lsp'),
}) as z<ServerConfig>;

/** Schema of the `editor` section. */
export const EditorConfig: z<EditorConfig> = z.object({
  enabled: z.boolean().default(false),
  requestTimeoutMs: positiveMs(60_000),
  diagnosticsCacheMaxFiles: z.natural().min(1).default(64),
  maxLineBytes: z.natural().min(1024).default(16 * 1024 * 1024),
  diagnosticsDebounceMs: z.natural().max(60_000).default(150),
  workspaceRoots: z.array(z.string()).default([]),
}) as z<EditorConfig>;

/** Tools edit feedback follows by default: the harness's file tools and this plugin's write tools. */
export const EDIT_FEEDBACK_TOOLS = ['write', 'edit', 'lsp_format', 'lsp_code_action', 'lsp_organize_imports', 'lsp_rename'];

/** Schema of the `editFeedback` section. */
export const EditFeedbackConfig: z<EditFeedbackConfig> = z.object({
  enabled: z.boolean().default(true),
  waitMs: positiveMs(3_000),
  maxItems: z.natural().min(1).default(10),
  maxChars: z.natural().min(200).default(2_000),
  severity: z.union(['error', 'warning', 'info', 'hint']).default('warning'),
  tools: z.array(z.string()).default(EDIT_FEEDBACK_TOOLS),
  baselineOnRead: z.boolean().default(true),
  watchChanges: z.boolean().default(true),
}) as z<EditFeedbackConfig>;

/** The plugin's Config schema; cordis validates it at load, so misconfiguration fails naming the key. */
export const Config: z<Config> = z.object({
  servers: z.dict(ServerConfig).default({}),
  embeddedTypeScript: z.boolean().default(true),
  maxLiveServers: z.natural().min(1).default(8),
  maxOpenDocuments: z.natural().min(1).default(256),
  diagnosticsWaitMs: positiveMs(20_000),
  workspaceMaxFiles: z.natural().min(1).default(200),
  timeoutMs: positiveMs(120_000),
  maxResultChars: z.natural().min(200).default(20_000),
  maxItems: z.natural().min(1).default(50),
  editor: EditorConfig.default({} as EditorConfig),
  editFeedback: EditFeedbackConfig.default({} as EditFeedbackConfig),
  navigation: z.boolean().default(true),
  watchWorkspace: z.boolean().default(false),
}) as z<Config>;

/**
 * Validates a raw config object outside cordis (CLI, tests).
 * @param raw user-supplied config
 * @returns the config with defaults applied
 * @throws the schemastery validation error, which names the offending key
 */
export function resolveConfig(raw: unknown): Config {
  return Config(raw as Config);
}
