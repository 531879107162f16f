/**
 * `signature.get` (additive, read-only): signature help at a zero-based position. No call
 * there is an empty `signatures` list, not an error.
 */
import type { ActionDefinition } from './action-definition.ts';
import type { PositionParams, SignatureGetResult } from './action-results.ts';
import { resolveFileTarget } from './file-target.ts';
import { parsePositionParams } from './hover-get.ts';

/** `signature.get`: `{ filePath, workspaceRoot, position, text? }`. */
export const signatureGetAction: ActionDefinition<PositionParams, SignatureGetResult> = {
  id: 'signature.get',
  writes: false,
  description: 'Signature help (parameters of the call at the cursor) at a zero-based position (read-only).',
  parse: parsePositionParams,
  async run(params, services, invocation) {
    const { target, filePath } = resolveFileTarget(invocation.root, params.filePath, params.text);
    const help = await services.engine.signatureHelp(target, params.position, { signal: invocation.signal });
    const result: SignatureGetResult = {
      kind: 'signature',
      filePath,
      position: params.position,
      signatures: [],
      activeSignature: 0,
      activeParameter: 0,
    };
    if (!help) return result;
    result.serverId = help.serverId;
    result.activeSignature = help.activeSignature;
    result.activeParameter = help.activeParameter;
    result.signatures = help.signatures.map((signature) => {
      const out: SignatureGetResult['signatures'][number] = {
        label: signature.label,
        parameters: signature.parameters.map((parameter) =>
          parameter.documentation ? { label: parameter.label, documentation: parameter.documentation } : { label: parameter.label },
        ),
      };
      if (signature.documentation) out.documentation = signature.documentation;
      if (signature.activeParameter !== undefined) out.activeParameter = signature.activeParameter;
      return out;
    });
    return result;
  },
};
