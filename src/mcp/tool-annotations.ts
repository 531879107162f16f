/**
 * MCP tool annotations, derived from the tool definitions the plugin registers rather than a
 * second list of tools: a tool that declares itself safe to run alongside sibling calls
 * (`isConcurrencySafe` → true, which the harness allows only for calls that mutate nothing) is
 * a read; every other tool may write files. Unknown is treated as a write, so a client never
 * runs a writing tool without asking because of a hint we guessed.
 */
import type { ToolDefinition } from '@deepseek-ai/dsh-tools';
import { LSP_FORMAT } from '../tools/lsp-format-tool.ts';
import { LSP_ORGANIZE_IMPORTS } from '../tools/lsp-organize-imports-tool.ts';

/** The MCP `ToolAnnotations` fields we set. */
export interface McpToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

/**
 * Write tools whose second identical call changes nothing more (the formatter's and the import
 * organizer's output is their own fixed point); a rename or a quick fix is not (the second call
 * finds other text at the cursor).
 */
const IDEMPOTENT_WRITES: ReadonlySet<string> = new Set([LSP_FORMAT, LSP_ORGANIZE_IMPORTS]);

/**
 * @param tool a registered tool definition
 * @returns whether it only reads: it declares a valid call (its required arguments, each a
 *   value of its type — the registry asks the classifier only about calls that validate)
 *   concurrency-safe
 */
export function isReadTool(tool: Pick<ToolDefinition, 'isConcurrencySafe' | 'parameters'>): boolean {
  try {
    return tool.isConcurrencySafe?.(sampleArgs(tool.parameters)) === true;
  } catch {
    return false; // swallowed: a classifier that throws is no promise of being read-only
  }
}

/**
 * @param parameters a tool's argument schema
 * @returns arguments that satisfy it: each required property with a value of its type
 */
export function sampleArgs(parameters: Record<string, unknown>): Record<string, unknown> {
  const properties = (parameters['properties'] ?? {}) as Record<string, { type?: unknown; enum?: unknown[] }>;
  const required = Array.isArray(parameters['required']) ? (parameters['required'] as string[]) : [];
  const out: Record<string, unknown> = {};
  for (const name of required) {
    const spec = properties[name] ?? {};
    out[name] = Array.isArray(spec.enum) && spec.enum.length > 0 ? spec.enum[0] : SAMPLES[String(spec.type)] ?? 'a';
  }
  return out;
}

/** One valid value per JSON Schema type. */
const SAMPLES: Record<string, unknown> = { string: 'a', integer: 1, number: 1, boolean: false, array: [], object: {}, null: null };

/**
 * @param tool a registered tool definition
 * @returns its annotations: reads are read-only; writes overwrite existing files (destructive),
 *   idempotent only where listed; every tool stays inside the local workspace (closed world)
 */
export function toolAnnotations(tool: Pick<ToolDefinition, 'name' | 'isConcurrencySafe' | 'parameters'>): McpToolAnnotations {
  if (isReadTool(tool)) return { readOnlyHint: true, openWorldHint: false };
  return { readOnlyHint: false, destructiveHint: true, idempotentHint: IDEMPOTENT_WRITES.has(tool.name), openWorldHint: false };
}
