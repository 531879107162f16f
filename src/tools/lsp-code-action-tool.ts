/**
 * `lsp_code_action`: lists the quick fixes and refactors the language server offers for a range
 * (or the file's first error), each with the edits it would make; with `title` or `index`,
 * applies one through the harness write path. A command-based action runs on the server, and
 * the edits it sends back go through the same write path.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { CodeActionApplyResult, CodeActionsListResult } from '../actions/action-results.ts';
import { ActionError } from '../errors.ts';
import { asJson, callCard, diffMeta, diffResultView } from './cards.ts';
import { renderCodeActionList } from './code-action-render.ts';
import { plural } from './locations.ts';
import { ESCALATION_PARAMS, runToolAction, sessionRoot, type LspToolDeps } from './run-tool-action.ts';
import { fromStructured, ROOT_FIELD, structured } from './structured.ts';
import { FILE_PATH_PARAM, RANGE_PARAMS, rangeSuffix, toWirePath, toWireRange, zeroBased } from './tool-args.ts';
import { renderUnchanged, renderWrite } from './write-render.ts';

/** Tool name. */
export const LSP_CODE_ACTION = 'lsp_code_action';

/** Verbatim description sent to the model. */
export const LSP_CODE_ACTION_DESCRIPTION =
  "List the language server's quick fixes and refactors for a range (start_line…, one-based), or for the file's first error when no range is given, each with the edits it would make. Then call again with the same file and range plus title or index to apply one; the change is saved and the changed lines are reported.";

/** The tool's structured result: a listing or an applied action. */
export type CodeActionToolValue = (CodeActionsListResult | CodeActionApplyResult) & { workspaceRoot: string };

/**
 * @param deps runner and config
 * @param escalate whether to advertise `sandbox_permissions` + `justification`
 * @returns the tool definition
 */
export function lspCodeActionTool(deps: LspToolDeps, escalate: boolean): ToolDefinition {
  const { config } = deps;
  return defineTool({
    name: LSP_CODE_ACTION,
    description: LSP_CODE_ACTION_DESCRIPTION,
    parameters: {
      file_path: FILE_PATH_PARAM,
      ...RANGE_PARAMS,
      kind: {
        type: 'string',
        description: 'Only actions of this kind: quickfix, refactor, source, or a sub-kind such as refactor.extract.',
      },
      title: { type: 'string', description: 'Apply the action with exactly this title (from the list).' },
      index: { type: 'integer', description: 'Apply the action with this number in the list (1 = first).' },
      ...(escalate ? ESCALATION_PARAMS : {}),
    },
    output: {
      schema: {
        type: 'object',
        additionalProperties: true,
        description:
          'codeActions.list result (kind codeActions: range, actions with zero-based index, preview edits, truncated, total) or codeAction.apply result (kind codeActionApplied: title, files, diffs; or unchanged).',
        properties: { kind: { type: 'string', required: true }, filePath: { type: 'string', required: true }, ...ROOT_FIELD },
      },
      render: (_args, value) => [{ type: 'text', text: renderCodeAction(fromStructured<CodeActionToolValue>(value), config.maxResultChars) }],
      presentationMeta: (_args, value) => {
        const v = fromStructured<CodeActionToolValue>(value);
        return asJson(diffMeta(v.workspaceRoot, v.kind === 'codeActionApplied' ? v.diffs : []));
      },
    },
    timeoutMs: config.timeoutMs,
    async execute(args, exec) {
      const root = sessionRoot(exec);
      const range = toWireRange(args);
      const filePath = toWirePath(root, args.file_path);
      const only = args.kind !== undefined && args.kind.trim() !== '' ? [args.kind.trim()] : undefined;
      const common = { filePath, ...(range ? { range } : {}), ...(only ? { only } : {}) };
      if (args.title === undefined && args.index === undefined) {
        if (args.sandbox_permissions !== undefined) {
          throw new ActionError('LSP_ACTION_INVALID_ARGS', 'sandbox_permissions only applies when applying an action (title or index)');
        }
        const listed = await runToolAction(deps, exec, { action: 'codeActions.list', params: { ...common, maxItems: config.maxItems, preview: true } }, root);
        return structured({ ...listed, workspaceRoot: root }) as never;
      }
      const pick = args.title !== undefined ? { title: args.title } : { index: zeroBased(args.index as number, 'index') };
      const applied = await runToolAction(deps, exec, { action: 'codeAction.apply', params: { ...common, ...pick }, escalation: escalate ? args : undefined }, root);
      return structured({ ...applied, workspaceRoot: root }) as never;
    },
    presentCall: (args) => {
      const applying = args.title !== undefined || args.index !== undefined;
      const what = args.title !== undefined ? `"${args.title}"` : args.index !== undefined ? `#${args.index}` : '';
      const title = applying ? `Apply code action ${what} in ${args.file_path}${rangeSuffix(args)}` : `Code actions ${args.file_path}${rangeSuffix(args)}`;
      return callCard(title, applying ? 'edit' : 'read', [{ path: args.file_path, ...(args.start_line ? { line: args.start_line } : {}) }]);
    },
    presentResult: (args, result) => diffResultView(`Code action in ${args.file_path}`, result),
  });
}

/**
 * @param value the structured result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderCodeAction(value: CodeActionToolValue, maxChars: number): string {
  const root = value.workspaceRoot;
  switch (value.kind) {
    case 'codeActions':
      return renderCodeActionList(root, value, maxChars);
    case 'unchanged':
      return renderUnchanged(root, value.filePath, value.reason, maxChars);
    default: {
      const notes: string[] = [];
      const reason = value.failureReason ? `: ${value.failureReason}` : '';
      if (!value.applied) notes.push(`${value.commandExecuted ? "The action's server command ran, but its" : 'Its'} edit was not applied${reason}. Nothing was changed.`);
      else if (value.diffs.length === 0) notes.push(value.commandExecuted ? 'The action ran a language-server command; no file content changed.' : 'No file content changed.');
      const kind = value.actionKind ? ` (${value.actionKind})` : '';
      const summary = `Applied: ${value.title}${kind} — ${plural(value.appliedEdits, 'edit')} in ${plural(value.filesChanged, 'file')}.`;
      return renderWrite(root, { summary, diffs: value.diffs, files: value.files, notes }, maxChars);
    }
  }
}
