/**
 * The MCP face's tool list: every `lsp_*` tool registered on the composition's tool registry —
 * the plugin's agent tools, and whatever tools it gains later through the same registration —
 * with the registry's own model-facing name, description and parameter schema. Only the sandbox
 * escalation pair is left out: MCP has no approval prompt to put an escalation to, so the mode
 * is chosen when the server starts (`--sandbox`).
 */
import type { ToolRuntime } from '@deepseek-ai/dsh-tools';
import { ESCALATION_PARAMS } from '../tools/run-tool-action.ts';
import { type McpToolAnnotations, toolAnnotations } from './tool-annotations.ts';

/** Every tool of this plugin is named with this prefix. */
export const LSP_TOOL_PREFIX = 'lsp_';

/** Argument names of the escalation pair (from the one definition of the pair). */
export const ESCALATION_ARG_NAMES: readonly string[] = Object.keys(ESCALATION_PARAMS);

/** One tool as `tools/list` describes it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
  annotations: McpToolAnnotations;
}

/**
 * @param tools the composition's tool registry
 * @returns the `lsp_*` tools in registration order, as MCP tools
 */
export function mcpTools(tools: Pick<ToolRuntime, 'schemas' | 'get'>): McpTool[] {
  const out: McpTool[] = [];
  for (const schema of tools.schemas()) {
    if (!schema.name.startsWith(LSP_TOOL_PREFIX)) continue;
    const definition = tools.get(schema.name);
    if (definition === undefined) continue;
    out.push({
      name: schema.name,
      description: schema.description,
      inputSchema: withoutEscalation(schema.parameters),
      annotations: toolAnnotations(definition),
    });
  }
  return out;
}

/**
 * @param parameters a tool's JSON Schema for its arguments
 * @returns a copy without the escalation pair
 */
export function withoutEscalation(parameters: Record<string, unknown>): McpTool['inputSchema'] {
  const properties = { ...(parameters['properties'] as Record<string, unknown> | undefined) };
  for (const name of ESCALATION_ARG_NAMES) delete properties[name];
  const required = Array.isArray(parameters['required']) ? (parameters['required'] as string[]).filter((n) => !ESCALATION_ARG_NAMES.includes(n)) : undefined;
  return { ...parameters, type: 'object', properties, ...(required === undefined ? {} : { required }) };
}

/**
 * @param args a call's arguments
 * @returns the first escalation argument the call names, if any
 */
export function escalationArgOf(args: Record<string, unknown>): string | undefined {
  return ESCALATION_ARG_NAMES.find((name) => args[name] !== undefined);
}
