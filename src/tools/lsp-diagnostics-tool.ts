/**
 * `lsp_diagnostics`: compiler errors and warnings for one file, several files, or the workspace,
 * with their freshness, and optionally only what changed since the session's previous check of
 * each file.
 */
import { resolve } from 'node:path';
import { defineTool, type ToolDefinition, type ToolRunContext } from '@deepseek-ai/dsh-tools';
import type { DiagnosticsGetResult, WireDiagnostic } from '../actions/action-results.ts';
import { ActionError } from '../errors.ts';
import { callCard, searchMeta, searchResultView, asJson } from './cards.ts';
import { diffDiagnostics, type DiagnosticsMemory } from './diagnostics-memory.ts';
import { describeDiagnostic, renderDiagnostics, type DiagnosticsFileEntry, type DiagnosticsToolValue } from './diagnostics-render.ts';
import { displayPath } from './locations.ts';
import { runToolAction, sessionRoot, type LspToolDeps } from './run-tool-action.ts';
import type { WorkspaceFileLister } from './workspace-files.ts';
import { WORKSPACE_DIAGNOSTICS_CONCURRENCY } from '../actions/diagnostics-workspace.ts';
import { CAP_FIELDS, fromStructured, listOf, openObject, ROOT_FIELD, structured } from './structured.ts';
import { toWirePath } from './tool-args.ts';

/** Tool name. */
export const LSP_DIAGNOSTICS = 'lsp_diagnostics';

/** Verbatim description sent to the model. */
export const LSP_DIAGNOSTICS_DESCRIPTION =
  'Compiler errors and warnings from the language server, as path:line:col (one-based). Give file_path for one file, file_paths for several, or neither for the whole workspace (its source files, worst first, capped). Each file says whether its result is fresh, pending (analysis not finished: not a clean result) or stale (from an earlier version). After an edit, set changes_only to see only the new and resolved problems since your last check of the file.';

/** Baselines for `changes_only` need the complete list; a file with more is listed in full instead. */
const BASELINE_ITEMS_FACTOR = 10;

/** Arguments as the schema gives them. */
interface DiagnosticsArgs {
  file_path?: string;
  file_paths?: string[];
  changes_only?: boolean;
}

/** What the diagnostics tool needs beyond the common deps. */
export interface DiagnosticsToolDeps extends LspToolDeps {
  /** Finds the workspace's source files; without it a workspace check covers the open documents only. */
  listWorkspaceFiles?: WorkspaceFileLister;
}

/**
 * @param deps runner, config, and the workspace file lister
 * @param memory per-session baselines for `changes_only`
 * @returns the tool definition
 */
export function lspDiagnosticsTool(deps: DiagnosticsToolDeps, memory: DiagnosticsMemory): ToolDefinition {
  const { config } = deps;
  return defineTool({
    name: LSP_DIAGNOSTICS,
    description: LSP_DIAGNOSTICS_DESCRIPTION,
    parameters: {
      file_path: { type: 'string', description: 'One file, relative to the workspace or absolute.' },
      file_paths: { type: 'array', items: { type: 'string' }, description: 'Several files, relative to the workspace or absolute.' },
      changes_only: {
        type: 'boolean',
        description: 'Only report problems that are new or resolved since your previous lsp_diagnostics call for the same file.',
      },
    },
    output: {
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          scope: { type: 'string', enum: ['file', 'files', 'workspace'], required: true },
          ...ROOT_FIELD,
          changesOnly: { type: 'boolean', required: true },
          files: listOf(openObject('One file: filePath, state (fresh|pending|stale), version, diagnostics (zero-based UTF-16 ranges), truncated, total, servers, error, changes.'), 'Files checked.'),
          ...CAP_FIELDS,
          filesChecked: { type: 'integer' },
          filesSkipped: { type: 'integer' },
          moreFiles: { type: 'boolean', description: 'The workspace has more source files than a workspace check looks at.' },
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderDiagnostics(fromStructured<DiagnosticsToolValue>(value), config.maxResultChars) }],
      presentationMeta: (_args, value) => asJson(diagnosticsSearchMeta(fromStructured<DiagnosticsToolValue>(value))),
    },
    timeoutMs: config.timeoutMs,
    isConcurrencySafe: () => true,
    async execute(args, exec) {
      return structured(await checkDiagnostics(deps, memory, args, exec)) as never;
    },
    presentCall: (args) => callCard(diagnosticsTitle(args), 'read', [...pathsOf(args)].map((path) => ({ path }))),
    presentResult: (args, result) => searchResultView(diagnosticsTitle(args), result),
  });
}

/** @returns the paths the call names */
function pathsOf(args: DiagnosticsArgs): string[] {
  return args.file_path !== undefined ? [args.file_path] : (args.file_paths ?? []);
}

/** @returns the card title */
function diagnosticsTitle(args: DiagnosticsArgs): string {
  const paths = pathsOf(args);
  const what = paths.length === 0 ? 'workspace' : paths.length === 1 ? paths[0] : `${paths.length} files`;
  return `Diagnostics ${what}${args.changes_only ? ' (changes)' : ''}`;
}

/**
 * @param value the tool's result
 * @returns search-card meta: current diagnostics grouped by file, one-based lines
 */
export function diagnosticsSearchMeta(value: DiagnosticsToolValue): ReturnType<typeof searchMeta> {
  const root = value.workspaceRoot;
  const matches = value.files.flatMap((f) =>
    f.diagnostics.map((d) => [displayPath(root, f.filePath), d.range.start.line + 1, describeDiagnostic(d)] as const),
  );
  return searchMeta(matches, value.truncated, value.total);
}

/**
 * Runs the check.
 * @param deps runner and config
 * @param memory baselines
 * @param args the call's arguments
 * @param exec the call
 * @returns the structured result
 */
export async function checkDiagnostics(
  deps: DiagnosticsToolDeps,
  memory: DiagnosticsMemory,
  args: DiagnosticsArgs,
  exec: ToolRunContext,
): Promise<DiagnosticsToolValue> {
  const { config } = deps;
  const root = sessionRoot(exec);
  if (args.file_path !== undefined && args.file_paths !== undefined) {
    throw new ActionError('LSP_ACTION_INVALID_ARGS', 'give file_path or file_paths, not both');
  }
  const sessionId = String(exec.agent?.session.header.id ?? exec.agent?.id ?? root);
  const changesOnly = args.changes_only === true;
  if (args.file_path === undefined && args.file_paths === undefined) return checkWorkspace(deps, memory, exec, root, sessionId, changesOnly);
  const paths = [...new Set(pathsOf(args).map((p) => toWirePath(root, p)))];
  if (paths.length === 0) throw new ActionError('LSP_ACTION_INVALID_ARGS', 'file_paths is empty; omit it to check the workspace');
  if (paths.length > config.workspaceMaxFiles) {
    throw new ActionError('LSP_ACTION_INVALID_ARGS', `at most ${config.workspaceMaxFiles} files per call; split file_paths or omit it to check the workspace`);
  }
  // A baseline needs the complete list, so ask for more than the display cap.
  const fetchItems = config.maxItems * BASELINE_ITEMS_FACTOR;
  const waitMs = waitBudget(config, paths.length);
  const settled = await settleInPool(paths, WORKSPACE_DIAGNOSTICS_CONCURRENCY, (filePath) =>
    runToolAction(deps, exec, { action: 'diagnostics.get', params: { filePath, maxItems: fetchItems, ...(paths.length > 1 ? { waitMs } : {}) } }, root),
  );
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  // A cancelled or timed-out call fails as a whole; other failures are reported per file.
  const stopped = failures.find((f) => ['LSP_ACTION_CANCELLED', 'LSP_ACTION_TIMEOUT'].includes((f.reason as ActionError).code));
  if (stopped) throw stopped.reason;
  if (failures.length === settled.length) throw failures[0]?.reason;
  const files = settled.map((s, i): DiagnosticsFileEntry => {
    const filePath = paths[i] as string;
    if (s.status === 'rejected') {
      const error = s.reason as ActionError;
      return { filePath, diagnostics: [], truncated: false, total: 0, error: { code: String(error.code), message: error.message } };
    }
    return fileEntry(memory, sessionId, filePath, s.value, changesOnly, config.maxItems);
  });
  return {
    scope: paths.length === 1 ? 'file' : 'files', workspaceRoot: root, changesOnly, files,
    truncated: files.some((f) => f.truncated), total: files.reduce((sum, f) => sum + f.total, 0),
  };
}

/** A workspace check: the walked source files plus the open documents, with a per-file wait that fits the call's budget. */
async function checkWorkspace(
  deps: DiagnosticsToolDeps,
  memory: DiagnosticsMemory,
  exec: ToolRunContext,
  root: string,
  sessionId: string,
  changesOnly: boolean,
): Promise<DiagnosticsToolValue> {
  const { config } = deps;
  const walked = deps.listWorkspaceFiles ? await deps.listWorkspaceFiles(root, config.workspaceMaxFiles, exec.signal) : undefined;
  // Without a walk the open documents are checked: as many as the cap, for all we know.
  const waitMs = waitBudget(config, walked ? walked.files.length : config.workspaceMaxFiles);
  const params = { maxItems: config.maxItems, waitMs, ...(walked && walked.files.length > 0 ? { filePaths: walked.files } : {}) };
  const result = await runToolAction(deps, exec, { action: 'diagnostics.workspace', params }, root);
  const files: DiagnosticsFileEntry[] = result.files.map((f) => {
    remember(memory, sessionId, resolve(root, f.filePath), f);
    return { ...f };
  });
  return {
    scope: 'workspace', workspaceRoot: root, changesOnly, files,
    truncated: result.truncated, total: result.total, filesChecked: result.filesChecked, filesSkipped: result.filesSkipped,
    ...(walked?.more ? { moreFiles: true } : {}),
  };
}

/**
 * Files are checked a few at a time; each gets a share of half the call's time, so a cold
 * server yields "pending" files rather than a timed-out call.
 * @param config timeouts
 * @param files how many files will be checked
 * @returns the most one file waits for a fresh result
 */
export function waitBudget(config: Pick<DiagnosticsToolDeps['config'], 'timeoutMs' | 'diagnosticsWaitMs'>, files: number): number {
  const rounds = Math.max(1, Math.ceil(files / WORKSPACE_DIAGNOSTICS_CONCURRENCY));
  return Math.min(config.diagnosticsWaitMs, Math.max(1_000, Math.floor(config.timeoutMs / 2 / rounds)));
}

/** Runs `fn` over `items`, at most `limit` at once, settling each like `Promise.allSettled`. */
async function settleInPool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<Array<PromiseSettledResult<R>>> {
  const out: Array<PromiseSettledResult<R>> = Array.from({ length: items.length });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        out[i] = { status: 'fulfilled', value: await fn(items[i] as T) };
      } catch (reason) {
        out[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Remembers a fresh, complete list as the session's baseline for that file. */
function remember(memory: DiagnosticsMemory, sessionId: string, path: string, r: { state: string; truncated: boolean; diagnostics: WireDiagnostic[]; error?: unknown }): void {
  if (r.state === 'fresh' && !r.truncated && r.error === undefined) memory.set(sessionId, path, r.diagnostics);
}

/** Builds one file's entry: compares with the baseline when asked, then caps the list for display. */
function fileEntry(
  memory: DiagnosticsMemory,
  sessionId: string,
  path: string,
  r: DiagnosticsGetResult,
  changesOnly: boolean,
  maxItems: number,
): DiagnosticsFileEntry {
  const baseline = memory.get(sessionId, path);
  let changes: DiagnosticsFileEntry['changes'];
  if (changesOnly) {
    changes = baseline && !r.truncated ? { baseline: true, ...diffDiagnostics(baseline, r.diagnostics) } : { baseline: false, added: [], resolved: [], unchanged: 0 };
  }
  remember(memory, sessionId, path, r);
  const entry: DiagnosticsFileEntry = {
    filePath: r.filePath, state: r.state, version: r.version,
    diagnostics: r.diagnostics.slice(0, maxItems), truncated: r.truncated || r.diagnostics.length > maxItems, total: r.total,
    servers: r.servers,
  };
  if (changes) entry.changes = changes;
  return entry;
}
