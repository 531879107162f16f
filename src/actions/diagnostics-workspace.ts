/**
 * `diagnostics.workspace` (additive, read-only): a Problems view. Looks at every document the
 * engine has open under the root plus the files named in `filePaths` (explicit files first), at
 * most config `workspaceMaxFiles` of them (`filesSkipped` counts the rest), and lists each file
 * that has diagnostics, whose diagnostics are not `fresh`, or that failed (with its error code)
 * — a clean file is only left out when its servers answered for its current text.
 *
 * Decision: no directory scan here. Actions get no file system (the engine reads files itself),
 * so walking the root belongs to the caller (the CLI `check`, or a tool listing files), which
 * passes what it found as `filePaths`. Files are ordered worst severity first, then by path; the
 * `maxItems` cap counts diagnostics across files (`total`, `truncated` overall and per file).
 */
import { abortError, isActionError } from '../errors.ts';
import type { LspEngineApi } from '../lsp/engine-types.ts';
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { DiagnosticsWorkspaceParams, DiagnosticsWorkspaceResult, SeverityName, WorkspaceFileDiagnostics } from './action-results.ts';
import { resolveInsideRoot, wirePath } from './file-target.ts';
import { itemLimit, toWireDiagnostic } from './wire-format.ts';

/** Files diagnosed at once. */
export const WORKSPACE_DIAGNOSTICS_CONCURRENCY = 4;

/**
 * @param raw wire params
 * @returns validated `diagnostics.workspace` params
 */
export function parseDiagnosticsWorkspaceParams(raw: unknown): DiagnosticsWorkspaceParams {
  const p = new ActionParams(raw);
  const params: DiagnosticsWorkspaceParams = { workspaceRoot: p.workspaceRoot() };
  const filePaths = p.stringArray('filePaths');
  const maxItems = p.positiveInt('maxItems');
  const waitMs = p.positiveInt('waitMs');
  if (filePaths !== undefined) params.filePaths = filePaths;
  if (maxItems !== undefined) params.maxItems = maxItems;
  if (waitMs !== undefined) params.waitMs = waitMs;
  return params;
}

/** `diagnostics.workspace`: `{ workspaceRoot, filePaths?, maxItems?, waitMs? }`. */
export const diagnosticsWorkspaceAction: ActionDefinition<DiagnosticsWorkspaceParams, DiagnosticsWorkspaceResult> = {
  id: 'diagnostics.workspace',
  writes: false,
  description: 'Diagnostics of every open file under the workspace plus the given files, worst first, with freshness (read-only).',
  parse: parseDiagnosticsWorkspaceParams,
  async run(params, services, invocation) {
    const { engine, config } = services;
    const { root, signal } = invocation;
    const explicit = (params.filePaths ?? []).map((filePath, i) => resolveInsideRoot(root, filePath, `params.filePaths[${i}]`));
    const all = [...new Set([...explicit, ...engine.openDocuments(root)])];
    const checked = all.slice(0, config.workspaceMaxFiles);
    const reports: Array<WorkspaceFileDiagnostics | undefined> = Array.from({ length: checked.length }, () => undefined);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < checked.length) {
        const i = next++;
        const path = checked[i] as string;
        reports[i] = await diagnoseFile(engine, root, path, signal, params.waitMs);
      }
    };
    await Promise.all(Array.from({ length: Math.min(WORKSPACE_DIAGNOSTICS_CONCURRENCY, checked.length) }, worker));
    const counts: Record<SeverityName, number> = { error: 0, warning: 0, information: 0, hint: 0 };
    const files: WorkspaceFileDiagnostics[] = [];
    for (const report of reports) {
      if (!report) continue;
      for (const d of report.diagnostics) counts[SEVERITY_NAMES[d.severity - 1] ?? 'error']++;
      if (report.diagnostics.length > 0 || report.state !== 'fresh' || report.error) files.push(report);
    }
    files.sort((a, b) => worst(a) - worst(b) || (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
    let budget = itemLimit(params.maxItems, config);
    let total = 0;
    for (const file of files) {
      total += file.total;
      file.truncated = file.total > budget;
      file.diagnostics = file.diagnostics.slice(0, Math.max(0, budget));
      budget -= file.diagnostics.length;
    }
    return {
      kind: 'workspaceDiagnostics',
      files,
      filesChecked: checked.length,
      filesSkipped: all.length - checked.length,
      counts,
      truncated: files.some((file) => file.truncated),
      total,
    };
  },
};

const SEVERITY_NAMES: readonly SeverityName[] = ['error', 'warning', 'information', 'hint'];

function worst(file: WorkspaceFileDiagnostics): number {
  if (file.error) return 0;
  return file.diagnostics.reduce((min, d) => Math.min(min, d.severity), 5);
}

async function diagnoseFile(
  engine: Pick<LspEngineApi, 'diagnostics'>,
  root: string,
  path: string,
  signal: AbortSignal,
  waitMs: number | undefined,
): Promise<WorkspaceFileDiagnostics> {
  const filePath = wirePath(root, path);
  try {
    const result = await engine.diagnostics({ root, path }, { signal, ...(waitMs !== undefined ? { waitMs } : {}) });
    const items = result.diagnostics.map(toWireDiagnostic);
    return { filePath, state: result.state, version: result.version, diagnostics: items, truncated: false, total: items.length };
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    if (!isActionError(error)) throw error;
    return { filePath, state: 'pending', version: 0, diagnostics: [], truncated: false, total: 0, error: { code: error.code, message: error.message } };
  }
}
