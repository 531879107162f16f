/**
 * `lsp_rename`: renames the symbol at a cursor everywhere the language server knows it is used
 * (checked with `prepareRename` first) and saves every changed file through the harness write
 * path, all or nothing.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { RenameResult } from '../actions/action-results.ts';
import { ActionError } from '../errors.ts';
import { asJson, callCard, diffMeta, diffResultView } from './cards.ts';
import { formatAt, plural } from './locations.ts';
import { ESCALATION_PARAMS, runToolAction, sessionRoot, type LspToolDeps } from './run-tool-action.ts';
import { fromStructured, ROOT_FIELD, structured } from './structured.ts';
import { cursorSuffix, FILE_PATH_PARAM, POSITION_PARAMS, toWirePath, toWirePosition } from './tool-args.ts';
import { renderUnchanged, renderWrite } from './write-render.ts';

/** Tool name. */
export const LSP_RENAME = 'lsp_rename';

/** Verbatim description sent to the model. */
export const LSP_RENAME_DESCRIPTION =
  'Rename the symbol at a cursor (one-based line and character, on the name) across the workspace, as the language server resolves it, and save every changed file (all or nothing). Reports the files and lines that changed.';

/** The tool's structured result. */
export type RenameToolValue = RenameResult & { workspaceRoot: string };

/**
 * @param deps runner and config
 * @param escalate whether to advertise `sandbox_permissions` + `justification`
 * @returns the tool definition
 */
export function lspRenameTool(deps: LspToolDeps, escalate: boolean): ToolDefinition {
  const { config } = deps;
  return defineTool({
    name: LSP_RENAME,
    description: LSP_RENAME_DESCRIPTION,
    parameters: {
      file_path: FILE_PATH_PARAM,
      ...POSITION_PARAMS,
      new_name: { type: 'string', required: true, description: 'The new name.' },
      ...(escalate ? ESCALATION_PARAMS : {}),
    },
    output: {
      schema: {
        type: 'object',
        additionalProperties: true,
        description: 'The rename result: kind renamed (position zero-based, oldName, newName, files, filesChanged, appliedEdits, diffs) or unchanged.',
        properties: { kind: { type: 'string', enum: ['renamed', 'unchanged'], required: true }, filePath: { type: 'string', required: true }, ...ROOT_FIELD },
      },
      render: (_args, value) => [{ type: 'text', text: renderRename(fromStructured<RenameToolValue>(value), config.maxResultChars) }],
      presentationMeta: (_args, value) => {
        const v = fromStructured<RenameToolValue>(value);
        return asJson(diffMeta(v.workspaceRoot, v.kind === 'renamed' ? v.diffs : []));
      },
    },
    timeoutMs: config.timeoutMs,
    async execute(args, exec) {
      const root = sessionRoot(exec);
      const newName = args.new_name.trim();
      if (newName === '') throw new ActionError('LSP_ACTION_INVALID_ARGS', 'new_name is empty');
      const params = { filePath: toWirePath(root, args.file_path), position: toWirePosition(args.line, args.character), newName };
      const result = await runToolAction(deps, exec, { action: 'rename', params, escalation: escalate ? args : undefined }, root);
      return structured({ ...result, workspaceRoot: root }) as never;
    },
    presentCall: (args) => callCard(`Rename ${args.file_path}${cursorSuffix(args)} → ${args.new_name}`, 'edit', [{ path: args.file_path, line: args.line }]),
    presentResult: (args, result) => diffResultView(`Rename → ${args.new_name}`, result),
  });
}

/**
 * @param value the structured result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderRename(value: RenameToolValue, maxChars: number): string {
  const root = value.workspaceRoot;
  if (value.kind === 'unchanged') return renderUnchanged(root, value.filePath, value.reason, maxChars);
  const from = value.oldName ? `"${value.oldName}"` : 'the symbol';
  const summary = `Renamed ${from} at ${formatAt(root, value.filePath, value.position)} to "${value.newName}": ${plural(value.appliedEdits, 'edit')} in ${plural(value.filesChanged, 'file')}.`;
  return renderWrite(root, { summary, diffs: value.diffs, files: value.files }, maxChars);
}
