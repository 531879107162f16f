/**
 * `lsp_signature`: the signature of the call at a cursor, with the active parameter marked,
 * its documentation, and the other overloads.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { SignatureGetResult } from '../actions/action-results.ts';
import { callCard } from './cards.ts';
import { formatAt } from './locations.ts';
import { runToolAction, sessionRoot, type LspToolDeps } from './run-tool-action.ts';
import { fromStructured, listOf, openObject, ROOT_FIELD, structured, WIRE_POSITION } from './structured.ts';
import { cutText, oneLine, renderBoundedList } from './text-budget.ts';
import { cursorSuffix, FILE_PATH_PARAM, POSITION_PARAMS, toWirePath, toWirePosition } from './tool-args.ts';

/** Tool name. */
export const LSP_SIGNATURE = 'lsp_signature';

/** Verbatim description sent to the model. */
export const LSP_SIGNATURE_DESCRIPTION =
  'Show the signature of the function or method being called at a cursor (one-based line and character, inside the call\'s parentheses): parameters with the current one marked «like this», documentation, and other overloads.';

/** Longest documentation kept for the active signature. */
const MAX_DOC_CHARS = 1_200;

/** The tool's structured result. */
export type SignatureToolValue = SignatureGetResult & { workspaceRoot: string };

type Signature = SignatureGetResult['signatures'][number];

/**
 * @param deps runner and config
 * @returns the tool definition
 */
export function lspSignatureTool(deps: LspToolDeps): ToolDefinition {
  const { config } = deps;
  return defineTool({
    name: LSP_SIGNATURE,
    description: LSP_SIGNATURE_DESCRIPTION,
    parameters: { file_path: FILE_PATH_PARAM, ...POSITION_PARAMS },
    output: {
      schema: {
        type: 'object',
        additionalProperties: true,
        description: 'The signature.get result; activeSignature and activeParameter are zero-based indexes.',
        properties: {
          kind: { type: 'string', const: 'signature', required: true },
          filePath: { type: 'string', required: true },
          position: { ...WIRE_POSITION, required: true },
          signatures: { ...listOf(openObject('label, documentation, parameters [{label, documentation}], activeParameter'), 'Signatures.'), required: true },
          activeSignature: { type: 'integer', required: true },
          activeParameter: { type: 'integer', required: true },
          ...ROOT_FIELD,
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderSignature(fromStructured<SignatureToolValue>(value), config.maxResultChars) }],
    },
    timeoutMs: config.timeoutMs,
    isConcurrencySafe: () => true,
    async execute(args, exec) {
      const root = sessionRoot(exec);
      const params = { filePath: toWirePath(root, args.file_path), position: toWirePosition(args.line, args.character) };
      const result = await runToolAction(deps, exec, { action: 'signature.get', params }, root);
      return structured({ ...result, workspaceRoot: root }) as never;
    },
    presentCall: (args) => callCard(`Signature ${args.file_path}${cursorSuffix(args)}`, 'read', [{ path: args.file_path, line: args.line }]),
  });
}

/**
 * @param sig a signature
 * @param active zero-based active parameter, if any
 * @returns its label with the active parameter wrapped in «»
 */
export function markActiveParameter(sig: Signature, active: number | undefined): string {
  const param = active === undefined ? undefined : sig.parameters[active];
  if (!param) return sig.label;
  const at = sig.label.indexOf(param.label, Math.max(0, sig.label.indexOf('(')));
  if (param.label === '' || at < 0) return sig.label;
  return `${sig.label.slice(0, at)}«${param.label}»${sig.label.slice(at + param.label.length)}`;
}

/**
 * @param value the structured result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderSignature(value: SignatureToolValue, maxChars: number): string {
  const at = formatAt(value.workspaceRoot, value.filePath, value.position);
  const active = value.signatures[value.activeSignature] ?? value.signatures[0];
  if (!active) return cutText(`No call at ${at}; put the cursor inside a call's parentheses.`, maxChars);
  const activeParam = active.activeParameter ?? value.activeParameter;
  const head = [`Signature at ${at}:`, markActiveParameter(active, activeParam)];
  const param = active.parameters[activeParam];
  if (param?.documentation) head.push(`Parameter ${param.label}: ${oneLine(param.documentation, 400)}`);
  if (active.documentation) head.push(cutText(active.documentation.trim(), MAX_DOC_CHARS));
  const others = value.signatures.filter((s) => s !== active);
  const items = others.map((s) => `overload: ${oneLine(s.label, 300)}`);
  return renderBoundedList({ head, items, alreadyOmitted: 0, noun: 'overloads' }, maxChars).text;
}
