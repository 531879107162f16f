/**
 * A tiny validator for wire params. Every refusal is `LSP_ACTION_INVALID_ARGS` naming the field
 * (`params.range.start.line must be a non-negative integer`); a missing `workspaceRoot` is
 * `LSP_ACTION_WORKSPACE_REQUIRED`, as the spec says, while one that is given but unusable (not a
 * string, or relative) is `LSP_ACTION_INVALID_ARGS` naming the field — the client sent a value,
 * so "none was given" would mislead (decision 0101). Unknown fields are ignored.
 */
import { isAbsolute } from 'node:path';
import { ActionError } from '../errors.ts';
import type { Position, Range } from '../lsp/engine-types.ts';
import type { EscalationParams } from './action-results.ts';

/**
 * @param value a workspace root as received
 * @param field its name in the request, for the message
 * @returns the value, when it is an absolute path
 * @throws ActionError `LSP_ACTION_WORKSPACE_REQUIRED` when absent or blank (none was given);
 *   `LSP_ACTION_INVALID_ARGS` naming the field when it is not a string or is relative
 */
export function checkWorkspaceRoot(value: unknown, field: string): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    throw new ActionError('LSP_ACTION_WORKSPACE_REQUIRED', `an absolute workspace root is required (${field}); none was given`);
  }
  if (typeof value !== 'string') throw invalid(`${field} must be a string (an absolute path), not ${Array.isArray(value) ? 'an array' : typeof value}`);
  if (!isAbsolute(value)) {
    throw invalid(`${field} must be an absolute path; ${JSON.stringify(value)} is relative (send the folder's full path)`);
  }
  return value;
}

/** Reads typed fields out of one raw params object. */
export class ActionParams {
  readonly #raw: Record<string, unknown>;

  /**
   * @param raw the wire params
   * @throws ActionError `LSP_ACTION_INVALID_ARGS` when `raw` is not an object
   */
  constructor(raw: unknown) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw invalid('params must be an object');
    }
    this.#raw = raw as Record<string, unknown>;
  }

  /**
   * @returns the absolute workspace root, as sent
   * @throws ActionError `LSP_ACTION_WORKSPACE_REQUIRED` when absent or blank; `LSP_ACTION_INVALID_ARGS`
   *   when not a string or relative
   */
  workspaceRoot(): string {
    return checkWorkspaceRoot(this.#raw['workspaceRoot'], 'params.workspaceRoot');
  }

  /** @returns `filePath`: a non-empty string, absolute or relative to the workspace root */
  filePath(): string {
    const value = this.string('filePath');
    if (value === undefined) throw invalid('params.filePath is required (a path absolute or relative to workspaceRoot)');
    if (value.trim() === '') throw invalid('params.filePath must not be empty');
    if (value.includes('\0')) throw invalid('params.filePath must not contain NUL characters');
    return value;
  }

  /**
   * @param key field name
   * @returns the string, or undefined when absent
   */
  string(key: string): string | undefined {
    const value = this.#raw[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw invalid(`params.${key} must be a string`);
    return value;
  }

  /**
   * @param key field name
   * @returns a non-empty string
   */
  requiredString(key: string): string {
    const value = this.string(key);
    if (value === undefined || value === '') throw invalid(`params.${key} is required (a non-empty string)`);
    return value;
  }

  /**
   * @param key field name
   * @returns the boolean, or undefined when absent
   */
  boolean(key: string): boolean | undefined {
    const value = this.#raw[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw invalid(`params.${key} must be true or false`);
    return value;
  }

  /**
   * @param key field name
   * @returns a non-negative integer, or undefined when absent
   */
  index(key: string): number | undefined {
    const value = this.#raw[key];
    if (value === undefined || value === null) return undefined;
    return nonNegativeInt(value, `params.${key}`);
  }

  /**
   * @param key field name (`maxItems`, `waitMs`)
   * @returns a positive integer, or undefined when absent
   */
  positiveInt(key: string): number | undefined {
    const value = this.#raw[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw invalid(`params.${key} must be a positive integer`);
    }
    return value;
  }

  /**
   * @param key field name
   * @returns non-empty strings, or undefined when absent
   */
  stringArray(key: string): string[] | undefined {
    const value = this.#raw[key];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) throw invalid(`params.${key} must be an array of strings`);
    return value.map((item, i) => {
      if (typeof item !== 'string' || item === '') throw invalid(`params.${key}[${i}] must be a non-empty string`);
      return item;
    });
  }

  /**
   * @param key field name
   * @returns whether the field is present (not undefined or null)
   */
  has(key: string): boolean {
    return this.#raw[key] !== undefined && this.#raw[key] !== null;
  }

  /**
   * @param key field name
   * @returns the zero-based position; throws when absent
   */
  position(key = 'position'): Position {
    const value = this.#raw[key];
    if (value === undefined || value === null) throw invalid(`params.${key} is required ({ line, character }, zero-based)`);
    return readPosition(value, `params.${key}`);
  }

  /**
   * @param key field name
   * @returns the zero-based half-open range, or undefined when absent
   */
  range(key = 'range'): Range | undefined {
    const value = this.#raw[key];
    if (value === undefined || value === null) return undefined;
    const field = `params.${key}`;
    if (typeof value !== 'object' || Array.isArray(value)) throw invalid(`${field} must be { start, end }`);
    const { start, end } = value as { start?: unknown; end?: unknown };
    if (start === undefined || start === null) throw invalid(`${field}.start is required`);
    if (end === undefined || end === null) throw invalid(`${field}.end is required`);
    const range = { start: readPosition(start, `${field}.start`), end: readPosition(end, `${field}.end`) };
    if (range.end.line < range.start.line || (range.end.line === range.start.line && range.end.character < range.start.character)) {
      throw invalid(`${field}.end must not be before ${field}.start`);
    }
    return range;
  }

  /** @returns the unsaved-buffer overlay of a read action, or undefined */
  text(): string | undefined {
    return this.string('text');
  }

  /**
   * Write actions act on the file as saved: an overlay would make the edits conflict.
   * @throws ActionError `LSP_ACTION_INVALID_ARGS` when `text` is present
   */
  refuseText(): void {
    if (this.#raw['text'] !== undefined && this.#raw['text'] !== null) {
      throw invalid('params.text is accepted by read actions only; write actions act on the saved file (save it first)');
    }
  }

  /** @returns the write fields: the escalation pair, as sent (the runner's caller resolves it), and `expectedSha256` */
  escalation(): EscalationParams {
    const out: EscalationParams = {};
    const permissions = this.string('sandbox_permissions');
    const justification = this.string('justification');
    const expected = this.string('expectedSha256');
    if (permissions !== undefined) out.sandbox_permissions = permissions;
    if (justification !== undefined) out.justification = justification;
    if (expected !== undefined) {
      if (!/^[0-9a-fA-F]{64}$/.test(expected)) throw invalid('params.expectedSha256 must be 64 hex digits (the SHA-256 of the document text)');
      out.expectedSha256 = expected.toLowerCase();
    }
    return out;
  }
}

/**
 * @param message what is wrong, naming the field
 * @returns an `LSP_ACTION_INVALID_ARGS` error
 */
export function invalid(message: string): ActionError {
  return new ActionError('LSP_ACTION_INVALID_ARGS', message);
}

function nonNegativeInt(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalid(`${field} must be a non-negative integer`);
  }
  return value;
}

function readPosition(value: unknown, field: string): Position {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${field} must be { line, character } (zero-based)`);
  }
  const { line, character } = value as { line?: unknown; character?: unknown };
  return { line: nonNegativeInt(line, `${field}.line`), character: nonNegativeInt(character, `${field}.character`) };
}
