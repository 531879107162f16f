/**
 * `lsp_edit_feedback`: the DSH edit feedback for agents whose writes we do not see. An MCP client
 * edits files with its own tools; the workspace watcher records which files changed on disk, and
 * this tool gives the language server's verdict on them — the very verdict DSH appends to a write
 * (the plugin's `verdictFor`, `src/feedback/edit-feedback.ts`, worded by `verdict-render.ts`): the
 * changed files and every file whose problems they could change (their importers), new problems
 * worst first and how many were resolved, each file compared with its last fresh verdict. A file
 * without a fresh answer in time is named pending, never clean.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { Config } from '../config.ts';
import type { EditVerdict } from '../feedback/edit-verdict.ts';
import { renderVerdict } from '../feedback/verdict-render.ts';
import type { LspActionsApi } from '../lsp-actions-api.ts';
import type { LspEngineApi } from '../lsp/engine-types.ts';
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
  /** The plugin's verdict for changed files (present while `editFeedback.enabled`). */
  verdictFor: NonNullable<LspActionsApi['verdictFor']>;
  engine: Pick<LspEngineApi, 'serversFor'>;
  config: Pick<Config, 'editFeedback' | 'timeoutMs'>;
  changes: Pick<ChangedFiles, 'take' | 'restore' | 'blindSpot'>;
  /** The served folders, absolute. */
  folders: readonly string[];
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

/**
 * @param deps the verdict, the router, config, changed files
 * @returns the tool definition
 */
export function lspEditFeedbackTool(deps: EditFeedbackToolDeps): ToolDefinition {
  const cfg = deps.config.editFeedback;
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
        const paths = changed.filter(({ filePath, kind }) => kind !== 'deleted' && handles(filePath, root)).map(({ filePath }) => filePath);
        const created = new Set(changed.filter(({ kind }) => kind === 'created').map(({ filePath }) => filePath));
        const verdict = paths.length === 0 ? undefined : await deps.verdictFor(root, paths, exec.signal, created);
        if (exec.signal.aborted) throw exec.signal.reason ?? new Error('cancelled');
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
