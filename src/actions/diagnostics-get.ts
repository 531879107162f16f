/**
 * `diagnostics.get` (v1, read-only): one file's diagnostics from every server routed to it,
 * merged, with freshness (`state`, `version`: additive). An empty list is only `fresh` when the
 * servers answered for this version of the text.
 */
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { DiagnosticsGetParams, DiagnosticsGetResult } from './action-results.ts';
import { resolveFileTarget } from './file-target.ts';
import { capItems, itemLimit, toWireDiagnostic, toWireServerStatus } from './wire-format.ts';

/**
 * @param raw wire params
 * @returns validated `diagnostics.get` params
 */
export function parseDiagnosticsGetParams(raw: unknown): DiagnosticsGetParams {
  const p = new ActionParams(raw);
  const params: DiagnosticsGetParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath() };
  const text = p.text();
  const includeSource = p.boolean('includeSource');
  const maxItems = p.positiveInt('maxItems');
  const waitMs = p.positiveInt('waitMs');
  if (text !== undefined) params.text = text;
  if (includeSource !== undefined) params.includeSource = includeSource;
  if (maxItems !== undefined) params.maxItems = maxItems;
  if (waitMs !== undefined) params.waitMs = waitMs;
  return params;
}

/** `diagnostics.get`: `{ filePath, workspaceRoot, includeSource?, text?, maxItems?, waitMs? }`. */
export const diagnosticsGetAction: ActionDefinition<DiagnosticsGetParams, DiagnosticsGetResult> = {
  id: 'diagnostics.get',
  writes: false,
  description: 'Fetch compiler/analyzer diagnostics for one file from its language servers, with freshness (read-only).',
  parse: parseDiagnosticsGetParams,
  async run(params, services, invocation) {
    const { target, path, filePath } = resolveFileTarget(invocation.root, params.filePath, params.text);
    const result = await services.engine.diagnostics(target, {
      signal: invocation.signal,
      ...(params.waitMs !== undefined ? { waitMs: params.waitMs } : {}),
    });
    const capped = capItems(result.diagnostics.map(toWireDiagnostic), itemLimit(params.maxItems, services.config));
    const out: DiagnosticsGetResult = {
      kind: 'diagnostics',
      filePath,
      diagnostics: capped.items,
      truncated: capped.truncated,
      total: capped.total,
      state: result.state,
      version: result.version,
      servers: result.servers.map(toWireServerStatus),
    };
    if (params.includeSource === true) {
      const source = params.text ?? services.engine.documentText(path)?.text;
      if (source !== undefined) out.source = source;
    }
    return out;
  },
};
