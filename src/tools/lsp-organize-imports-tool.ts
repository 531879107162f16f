/**
 * `lsp_organize_imports`: runs the language server's `source.organizeImports` on a file (sort,
 * merge, drop unused imports) and saves the result through the harness write path.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { OrganizeImportsResult } from '../actions/action-results.ts';
import { asJson, callCard, diffMeta, diffResultView } from './cards.ts';
import { displayPath, plural } from './locations.ts';
import { ESCALATION_PARAMS, runToolAction, sessionRoot, type LspToolDeps } from './run-tool-action.ts';
import { fromStructured, ROOT_FIELD, structured } from './structured.ts';
import { FILE_PATH_PARAM, toWirePath } from './tool-args.ts';
import { renderUnchanged, renderWrite } from './write-render.ts';

/** Tool name. */
export const LSP_ORGANIZE_IMPORTS = 'lsp_organize_imports';

/** Verbatim description sent to the model. */
export const LSP_ORGANIZE_IMPORTS_DESCRIPTION =
  "Organize a file's imports with its language server (sort, merge, remove unused) and save the result. Reports which lines changed.";

/** The tool's structured result. */
export type OrganizeImportsToolValue = OrganizeImportsResult & { workspaceRoot: string };

/**
 * @param deps runner and config
 * @param escalate whether to advertise `sandbox_permissions` + `justification`
 * @returns the tool definition
 */
export function lspOrganizeImportsTool(deps: LspToolDeps, escalate: boolean): ToolDefinition {
  const { config } = deps;
  return defineTool({
    name: LSP_ORGANIZE_IMPORTS,
    description: LSP_ORGANIZE_IMPORTS_DESCRIPTION,
    parameters: { file_path: FILE_PATH_PARAM, ...(escalate ? ESCALATION_PARAMS : {}) },
    output: {
      schema: {
        type: 'object',
        additionalProperties: true,
        description: 'The organizeImports result: kind importsOrganized (title, linesChanged, filesChanged, appliedEdits, diffs) or unchanged.',
        properties: {
          kind: { type: 'string', enum: ['importsOrganized', 'unchanged'], required: true },
          filePath: { type: 'string', required: true },
          ...ROOT_FIELD,
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderOrganizeImports(fromStructured<OrganizeImportsToolValue>(value), config.maxResultChars) }],
      presentationMeta: (_args, value) => {
        const v = fromStructured<OrganizeImportsToolValue>(value);
        return asJson(diffMeta(v.workspaceRoot, v.kind === 'importsOrganized' ? v.diffs : []));
      },
    },
    timeoutMs: config.timeoutMs,
    async execute(args, exec) {
      const root = sessionRoot(exec);
      const params = { filePath: toWirePath(root, args.file_path) };
      const result = await runToolAction(deps, exec, { action: 'organizeImports', params, escalation: escalate ? args : undefined }, root);
      return structured({ ...result, workspaceRoot: root }) as never;
    },
    presentCall: (args) => callCard(`Organize imports ${args.file_path}`, 'edit', [{ path: args.file_path }]),
    presentResult: (args, result) => diffResultView(`Organize imports ${args.file_path}`, result),
  });
}

/**
 * @param value the structured result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderOrganizeImports(value: OrganizeImportsToolValue, maxChars: number): string {
  const root = value.workspaceRoot;
  if (value.kind === 'unchanged') return renderUnchanged(root, value.filePath, value.reason ?? 'the imports are already organized', maxChars);
  const summary = `Organized imports in ${displayPath(root, value.filePath)}: ${plural(value.appliedEdits, 'edit')}, ${plural(value.linesChanged, 'line')} changed.`;
  return renderWrite(root, { summary, diffs: value.diffs }, maxChars);
}
