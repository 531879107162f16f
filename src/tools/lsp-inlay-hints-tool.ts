/**
 * `lsp_inlay_hints`: the inferred types and parameter names an editor would show inline, for a
 * range of lines or the whole file.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { InlayHintsGetResult } from '../actions/action-results.ts';
import { callCard } from './cards.ts';
import { describeRange, displayPath, oneBasedPosition } from './locations.ts';
import { runToolAction, sessionRoot, type LspToolDeps } from './run-tool-action.ts';
import { CAP_FIELDS, fromStructured, listOf, openObject, ROOT_FIELD, structured } from './structured.ts';
import { oneLine, renderBoundedList } from './text-budget.ts';
import { FILE_PATH_PARAM, RANGE_PARAMS, rangeSuffix, toWirePath, toWireRange } from './tool-args.ts';

/** Tool name. */
export const LSP_INLAY_HINTS = 'lsp_inlay_hints';

/** Verbatim description sent to the model. */
export const LSP_INLAY_HINTS_DESCRIPTION =
  'Show the inlay hints an editor would display: inferred types of variables and return values, and parameter names at call sites. For start_line…end_line (one-based), or the whole file when no range is given.';

/** The tool's structured result. */
export type InlayHintsToolValue = InlayHintsGetResult & { workspaceRoot: string };

/**
 * @param deps runner and config
 * @returns the tool definition
 */
export function lspInlayHintsTool(deps: LspToolDeps): ToolDefinition {
  const { config } = deps;
  return defineTool({
    name: LSP_INLAY_HINTS,
    description: LSP_INLAY_HINTS_DESCRIPTION,
    parameters: { file_path: FILE_PATH_PARAM, ...RANGE_PARAMS },
    output: {
      schema: {
        type: 'object',
        additionalProperties: true,
        description: 'The inlayHints.get result (zero-based UTF-16 positions; kind 1 type, 2 parameter).',
        properties: {
          kind: { type: 'string', const: 'inlayHints', required: true },
          filePath: { type: 'string', required: true },
          hints: { ...listOf(openObject('position, label, kind, paddingLeft, paddingRight'), 'Hints in document order.'), required: true },
          ...CAP_FIELDS,
          ...ROOT_FIELD,
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderInlayHints(fromStructured<InlayHintsToolValue>(value), config.maxResultChars) }],
    },
    timeoutMs: config.timeoutMs,
    isConcurrencySafe: () => true,
    async execute(args, exec) {
      const root = sessionRoot(exec);
      const range = toWireRange(args);
      const params = { filePath: toWirePath(root, args.file_path), ...(range ? { range } : {}), maxItems: config.maxItems };
      const result = await runToolAction(deps, exec, { action: 'inlayHints.get', params }, root);
      return structured({ ...result, workspaceRoot: root }) as never;
    },
    presentCall: (args) =>
      callCard(`Inlay hints ${args.file_path}${rangeSuffix(args)}`, 'read', [{ path: args.file_path, ...(args.start_line ? { line: args.start_line } : {}) }]),
  });
}

/**
 * @param hint one hint
 * @returns `line:col type: number` / `line:col parameter: name`
 */
export function formatHint(hint: InlayHintsGetResult['hints'][number]): string {
  const label = oneLine(hint.label.trim().replace(/^:\s*/, '').replace(/:$/, ''), 200);
  const what = hint.kind === 1 ? 'type' : hint.kind === 2 ? 'parameter' : 'hint';
  return `${oneBasedPosition(hint.position)} ${what}: ${label}`;
}

/**
 * @param value the structured result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderInlayHints(value: InlayHintsToolValue, maxChars: number): string {
  const path = displayPath(value.workspaceRoot, value.filePath);
  const where = value.range ? `${path} (${describeRange(value.range)})` : path;
  const count = value.truncated ? `${value.hints.length} of ${value.total}` : `${value.total}`;
  const head = [value.total === 0 ? `No inlay hints in ${where}.` : `Inlay hints in ${where}: ${count} (line:col one-based, the hint shows at that spot).`];
  return renderBoundedList({ head, items: value.hints.map(formatHint), alreadyOmitted: value.total - value.hints.length, noun: 'hints' }, maxChars).text;
}
