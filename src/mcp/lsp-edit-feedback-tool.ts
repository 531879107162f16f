/**
 * `lsp_edit_feedback`: the DSH edit feedback for agents whose writes we do not see. An MCP client
 * edits files with its own tools; the workspace watcher records which files changed on disk, and
 * this tool gives the language server's verdict on them — computed and worded by the same
 * functions as the verdict DSH appends to a write (`src/feedback/edit-verdict.ts`,
 * `verdict-render.ts`): new problems worst first and how many were resolved, compared with the
 * last result this client was shown for each file (an `lsp_diagnostics` answer or an earlier
 * verdict), plus problems the change caused in other files checked before. A file without a
 * fresh answer in time is pending, never clean.
 */
import { resolve } from 'node:path';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { WireDiagnostic } from '../actions/action-results.ts';
import type { ActionRunner } from '../actions/action-runner.ts';
import type { Config } from '../config.ts';
import type { DiagnosticsBaselines } from '../feedback/diagnostics-baselines.ts';
import { computeVerdict, type EditVerdict } from '../feedback/edit-verdict.ts';
import { renderVerdict } from '../feedback/verdict-render.ts';
import type { ObservedWrite } from '../feedback/write-tracker.ts';
import type { LspEngineApi } from '../lsp/engine-types.ts';
import { DiagnosticsMemory } from '../tools/diagnostics-memory.ts';
import { displayPath } from '../tools/locations.ts';
import { structured } from '../tools/structured.ts';
import type { ChangedFiles, ChangeKind } from './changed-files.ts';

/** Tool name. */
export const LSP_EDIT_FEEDBACK = 'lsp_edit_feedback';

/** Verbatim description sent to the model. */
export const LSP_EDIT_FEEDBACK_DESCRIPTION =
  'What your file edits broke or fixed: the language server checks every file changed on disk since your previous lsp_edit_feedback call and reports the new problems (path:line:col, one-based, worst first) and how many were resolved, compared with what you were last shown for each file, plus new problems the change caused in other files you checked before. Call it after editing. A file without a fresh result is reported as pending, never as clean.';

/** What the tool runs on. */
export interface EditFeedbackToolDeps {
  runner: Pick<ActionRunner, 'run'>;
  engine: Pick<LspEngineApi, 'onDiagnostics' | 'serversFor' | 'openDocuments' | 'filesChanged'>;
  config: Pick<Config, 'editFeedback' | 'timeoutMs'>;
  fs: Pick<FileSystem, 'resolve' | 'stat'>;
  changes: Pick<ChangedFiles, 'take' | 'restore' | 'blindSpot'>;
  /** The served folders, absolute. */
  folders: readonly string[];
  /** The last result this client was shown per file (shared with the face, which records `lsp_diagnostics` answers). */
  baselines: DiagnosticsBaselines;
}

/** One served folder's part of the result. */
export interface FolderFeedback {
  workspaceRoot: string;
  text: string;
  /** Files changed since the previous call (absolute), with what happened to them. */
  changed: Array<{ filePath: string; kind: ChangeKind }>;
  verdict?: EditVerdict;
}

/** The structured result. */
export interface EditFeedbackValue {
  /** What the model reads: the verdict of each folder with changes. */
  text: string;
  folders: FolderFeedback[];
}

/** The session key of the face's verdicts (one MCP server serves one client). */
const SESSION = 'mcp';

/**
 * @param deps runner, engine, config, fs, changed files, baselines
 * @returns the tool definition
 */
export function lspEditFeedbackTool(deps: EditFeedbackToolDeps): ToolDefinition {
  const cfg = deps.config.editFeedback;
  const memory = new DiagnosticsMemory(1);
  const handles = (path: string, root: string): boolean => {
    try {
      return deps.engine.serversFor(path, root).length > 0;
    } catch {
      return false; // swallowed: a path the router refuses (outside the workspace) is one no server handles
    }
  };
  return defineTool({
    name: LSP_EDIT_FEEDBACK,
    description: LSP_EDIT_FEEDBACK_DESCRIPTION,
    parameters: {},
    output: {
      schema: {
        type: 'object',
        additionalProperties: true,
        description: 'The verdict text, and per served folder the changed files and the verdict per file (zero-based UTF-16 ranges).',
        properties: { text: { type: 'string', required: true }, folders: { type: 'array', items: { type: 'object', additionalProperties: true }, required: true } },
      },
      render: (_args, value) => [{ type: 'text', text: (value as unknown as EditFeedbackValue).text }],
    },
    // the verdict's own budget plus the time to learn of the changes
    timeoutMs: Math.max(deps.config.timeoutMs, cfg.waitMs * 2),
    isConcurrencySafe: () => true,
    async execute(_args, exec) {
      // innermost folders first, so a file in nested folders is judged in the innermost one
      const folders = [...deps.folders].sort((a, b) => b.length - a.length);
      const judged: FolderFeedback[] = [];
      const judgeFolder = async (root: string, changes: ReadonlyMap<string, ChangeKind>): Promise<FolderFeedback[]> => {
        const changed = [...changes].map(([filePath, kind]) => ({ filePath, kind }));
        if (changed.length === 0) return [];
        const writes: ObservedWrite[] = [];
        for (const { filePath, kind } of changed) {
          if (kind === 'deleted' || !handles(filePath, root)) continue;
          const write = await observedWrite(deps, filePath, kind, exec.signal);
          if (write !== undefined) writes.push(write);
        }
        const verdict = writes.length === 0 ? undefined : await computeVerdict(
          { runner: deps.runner, engine: deps.engine, baselines: deps.baselines, memory, handles, waitMs: cfg.waitMs, severity: cfg.severity },
          { root, sessionId: SESSION, signal: exec.signal, writes },
        );
        const text = verdict === undefined ? nothingToJudge(root, changed) : renderVerdict(verdict, cfg) + deletedNote(root, changed);
        return [{ workspaceRoot: root, text, changed, ...(verdict ? { verdict } : {}) }];
      };
      const taken = new Map<string, Map<string, ChangeKind>>();
      for (const root of folders) taken.set(root, await deps.changes.take(root));
      try {
        for (const root of folders) judged.push(...(await judgeFolder(root, taken.get(root) ?? new Map())));
      } catch (error) {
        // a cancelled or failed call gave no verdict: its changes are judged by the next call
        for (const changes of taken.values()) deps.changes.restore(changes);
        throw error;
      }
      // a folder no watcher or sweep covers: its changes cannot be known, and saying "no change" there would be a guess
      const blind = deps.folders.flatMap((root) => {
        const reason = deps.changes.blindSpot(root);
        return reason === undefined ? [] : [`LSP: changes under ${root} cannot be seen (watching failed: ${reason}); call lsp_diagnostics on the files you edited there`];
      });
      const text =
        judged.length === 0
          ? blind.length > 0
            ? blind.join('\n')
            : `LSP: the workspace watcher saw no file change under ${deps.folders.join(', ')} since the previous lsp_edit_feedback call`
          : [judged.length === 1 ? (judged[0] as FolderFeedback).text : judged.map((f) => `${f.workspaceRoot}:\n${f.text}`).join('\n'), ...blind].join('\n');
      return structured({ text, folders: judged } satisfies EditFeedbackValue) as never;
    },
  });
}

/**
 * A changed file as the verdict takes it: its current version, and as "before" the last result
 * shown for it (a created file: nothing).
 */
async function observedWrite(deps: EditFeedbackToolDeps, path: string, kind: ChangeKind, signal: AbortSignal): Promise<ObservedWrite | undefined> {
  try {
    const target = await deps.fs.resolve(path, { signal });
    const info = await deps.fs.stat(target, signal);
    if (info === undefined) return undefined; // gone again since the watcher saw it
    const shown = deps.baselines.get(path)?.version;
    const previous = kind === 'created' ? { previous: { kind: 'absent' as const } } : shown === undefined ? {} : { previous: { kind: 'present' as const, version: shown } };
    return { target, path, version: info.version, ...previous };
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined; // swallowed: a file the fs cannot stat now is not judged (it is not there to check)
  }
}

/** @returns the text when no changed file is one a language server checks */
function nothingToJudge(root: string, changed: FolderFeedback['changed']): string {
  const kept = changed.filter((c) => c.kind !== 'deleted');
  const head = kept.length === 0 ? 'LSP: only deletions' : `LSP: no language server checks the ${kept.length === 1 ? 'changed file' : `${kept.length} changed files`}`;
  return `${head}${deletedNote(root, changed)}`;
}

/** @returns a note naming deleted files, whose dependents are checked on the next lsp_diagnostics call */
function deletedNote(root: string, changed: FolderFeedback['changed']): string {
  const deleted = changed.filter((c) => c.kind === 'deleted').map((c) => displayPath(root, c.filePath));
  if (deleted.length === 0) return '';
  const shown = deleted.slice(0, 5).join(', ') + (deleted.length > 5 ? `, and ${deleted.length - 5} more` : '');
  return `\nDeleted: ${shown}. Files that used them are not judged here; call lsp_diagnostics on them.`;
}

/** The parts of an `lsp_diagnostics` value a baseline is taken from. */
interface ShownFile {
  filePath?: unknown;
  state?: unknown;
  truncated?: unknown;
  error?: unknown;
  diagnostics?: unknown;
}

/**
 * Records what an `lsp_diagnostics` answer showed the client as the "before" of the next
 * verdict on each file: only fresh, complete, successful lists.
 * @param deps the fs and the baselines
 * @param root the call's root
 * @param value the tool's structured value
 * @returns when recorded (never rejects)
 */
export async function rememberShown(deps: Pick<EditFeedbackToolDeps, 'fs' | 'baselines'>, root: string, value: unknown): Promise<void> {
  const files = (value as { files?: unknown } | undefined)?.files;
  if (!Array.isArray(files)) return;
  await Promise.all(
    (files as ShownFile[]).map(async (file) => {
      if (typeof file.filePath !== 'string' || file.state !== 'fresh' || file.truncated !== false || file.error !== undefined || !Array.isArray(file.diagnostics)) return;
      const path = resolve(root, file.filePath);
      try {
        const info = await deps.fs.stat(await deps.fs.resolve(path));
        if (info !== undefined) deps.baselines.set(path, info.version, file.diagnostics as WireDiagnostic[]);
      } catch {
        // swallowed: a file the fs cannot stat now gets no baseline; its next verdict says "no earlier check"
      }
    }),
  );
}
