/**
 * Helpers shared by the tool definitions: the structured-result boundary (lossless JSON, no
 * `undefined` properties) and loose output-schema building blocks.
 */
import type { JsonValue, ObjectValueSchemaSpec, ValueSchemaSpec } from '@deepseek-ai/dsh-tools';

/**
 * @param value a plain result object (no functions, no cycles)
 * @returns the same data as canonical JSON: `undefined` properties dropped
 */
export function structured(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/**
 * Reads a validated structured value back as the type this module produced.
 * @param value the value the harness validated against the output schema
 * @returns it, typed
 */
export function fromStructured<T>(value: unknown): T {
  return value as T;
}

/**
 * @param description what it is
 * @returns an open object node (extra fields allowed), for nested wire shapes
 */
export function openObject(description: string): ObjectValueSchemaSpec {
  return { type: 'object', additionalProperties: true, description };
}

/**
 * @param items schema of each item
 * @param description what the list holds
 * @returns an array node
 */
export function listOf(items: ValueSchemaSpec, description: string): ValueSchemaSpec {
  return { type: 'array', items, description };
}

/** `{line, character}` zero-based UTF-16, as every structured result carries it. */
export const WIRE_POSITION = {
  type: 'object',
  additionalProperties: false,
  description: 'Zero-based line and UTF-16 character.',
  properties: {
    line: { type: 'integer', required: true },
    character: { type: 'integer', required: true },
  },
} as const;

/** The fields every capped result carries. */
export const CAP_FIELDS = {
  truncated: { type: 'boolean', required: true, description: 'Whether the list was cut to the item limit.' },
  total: { type: 'integer', required: true, description: 'How many there were before the cut.' },
} as const;

/** The workspace root every structured result names (paths in it are relative to this or absolute). */
export const ROOT_FIELD = {
  workspaceRoot: { type: 'string', required: true, description: 'The session workspace the call ran in.' },
} as const;
