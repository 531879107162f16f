/**
 * `lsp_format`: formats a file, or a range of it, with the language server's formatter and
 * writes the result through the harness write path. The card shows the applied diff.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { FormatResult } from '../actions/action-results.ts';
import { asJson, callCard, diffMeta, diffResultView } from './cards.ts';
import { displayPath, plural } from './locations.ts';
import { ESCALATION_PARAMS, runToolAction, sessionRoot, type LspToolDeps } from './run-tool-action.ts';
import { fromStructured, ROOT_FIELD, structured } from './structured.ts';
import { FILE_PATH_PARAM, RANGE_PARAMS, rangeSuffix, toWirePath, toWireRange } from './tool-args.ts';
import { renderUnchanged, renderWrite } from './write-render.ts';

/** Tool name. */
export const LSP_FORMAT = 'lsp_format';

/** Verbatim description sent to the model. */
export const LSP_FORMAT_DESCRIPTION =
  "Format a file with its language server's formatter and save the result. Give start_line/end_line (one-based) to format only those lines. Reports which lines changed.";

/** The tool's structured result: the action result plus the workspace root. */
export type FormatToolValue = FormatResult & { workspaceRoot: string };

/**
 * @param deps runner and config
 * @param escalate whether to advertise `sandbox_permissions` + `justification`
 * @returns the tool definition
 */
export function lspFormatTool(deps: LspToolDeps, escalate: boolean): ToolDefinition {
  const { config } = deps;
  return defineTool({
    name: LSP_FORMAT,
    description: LSP_FORMAT_DESCRIPTION,
    parameters: { file_path: FILE_PATH_PARAM, ...RANGE_PARAMS, ...(escalate ? ESCALATION_PARAMS : {}) },
    output: {
      schema: {
        type: 'object',
        additionalProperties: true,
        description: 'The format action result: kind formatted (filePath, appliedEdits, linesChanged, before, after) or unchanged (filePath, reason).',
        properties: { kind: { type: 'string', enum: ['formatted', 'unchanged'], required: true }, filePath: { type: 'string', required: true }, ...ROOT_FIELD },
      },
      render: (_args, value) => [{ type: 'text', text: renderFormat(fromStructured<FormatToolValue>(value), config.maxResultChars) }],
      presentationMeta: (_args, value) => {
        const v = fromStructured<FormatToolValue>(value);
        return asJson(diffMeta(v.workspaceRoot, v.kind === 'formatted' ? [{ filePath: v.filePath, before: v.before, after: v.after }] : []));
      },
    },
    timeoutMs: config.timeoutMs,
    async execute(args, exec) {
      const root = sessionRoot(exec);
      const range = toWireRange(args);
      const filePath = toWirePath(root, args.file_path);
      const result = await runToolAction(
        deps,
        exec,
        { action: 'format', params: { filePath, ...(range ? { range } : {}) }, escalation: escalate ? args : undefined },
        root,
      );
      return structured({ ...result, workspaceRoot: root }) as never;
    },
    presentCall: (args) => callCard(`Format ${args.file_path}${rangeSuffix(args)}`, 'edit', [{ path: args.file_path, ...(args.start_line ? { line: args.start_line } : {}) }]),
    presentResult: (args, result) => diffResultView(`Format ${args.file_path}${rangeSuffix(args)}`, result),
  });
}

/**
 * @param value the structured result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderFormat(value: FormatToolValue, maxChars: number): string {
  const root = value.workspaceRoot;
  if (value.kind === 'unchanged') return renderUnchanged(root, value.filePath, value.reason ?? 'it is already formatted', maxChars);
  return renderWrite(
    root,
    {
      summary: `Formatted ${displayPath(root, value.filePath)}: ${plural(value.appliedEdits, 'edit')}, ${plural(value.linesChanged, 'line')} changed.`,
      diffs: [{ filePath: value.filePath, before: value.before, after: value.after }],
      files: [{ filePath: value.filePath, editCount: value.appliedEdits }],
    },
    maxChars,
  );
}
