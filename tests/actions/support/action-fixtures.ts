/**
 * Shared fixtures for action tests: a workspace root, default config, services and invocations
 * built from the stub engine and the memory writer, and an error matcher for `assert.rejects`.
 */
import type { ActionInvocation, ActionServices } from '../../../src/actions/action-definition.ts';
import { resolveConfig } from '../../../src/config.ts';
import type { Config } from '../../../src/config.ts';
import type { ActionErrorCode } from '../../../src/errors.ts';
import { isActionError } from '../../../src/errors.ts';
import type { CodeActionItem, EngineDiagnostic, Range, TextEdit } from '../../../src/lsp/engine-types.ts';
import { MemoryWriter } from './memory-writer.ts';
import { StubEngine } from './stub-engine.ts';

/** The workspace root every test uses. */
export const ROOT = '/ws';

/** Default config (schema defaults). */
export const CONFIG: Config = resolveConfig({});

/**
 * @param overrides engine, writer or config to use
 * @returns services plus the stubs behind them
 */
export function makeServices(overrides: { engine?: StubEngine; writer?: MemoryWriter; config?: Partial<Config> } = {}): ActionServices & {
  engine: StubEngine;
  writer: MemoryWriter;
} {
  return {
    engine: overrides.engine ?? new StubEngine(),
    writer: overrides.writer ?? new MemoryWriter(),
    config: { ...CONFIG, ...overrides.config },
  };
}

/**
 * @param write whether to carry a write grant
 * @param signal optional signal
 * @returns an invocation at {@link ROOT}
 */
export function invocation(write = false, signal: AbortSignal = new AbortController().signal): ActionInvocation {
  return write ? { root: ROOT, signal, write: { actor: { name: 'test' } } } : { root: ROOT, signal };
}

/**
 * @param code expected code
 * @param message optional pattern the message must match
 * @returns an `assert.rejects`/`assert.throws` validator
 */
export function actionError(code: ActionErrorCode, message?: RegExp): (error: unknown) => boolean {
  return (error) => {
    if (!isActionError(error)) throw new Error(`expected ActionError ${code}, got ${String(error)}`);
    if (error.code !== code) throw new Error(`expected ${code}, got ${error.code}: ${error.message}`);
    if (message && !message.test(error.message)) throw new Error(`message ${JSON.stringify(error.message)} does not match ${message}`);
    return true;
  };
}

/**
 * @param sl start line
 * @param sc start character
 * @param el end line
 * @param ec end character
 * @returns a range
 */
export function range(sl: number, sc: number, el = sl, ec = sc): Range {
  return { start: { line: sl, character: sc }, end: { line: el, character: ec } };
}

/**
 * @param r range
 * @param newText replacement
 * @returns a text edit
 */
export function edit(r: Range, newText: string): TextEdit {
  return { range: r, newText };
}

/**
 * @param severity severity name
 * @param r range
 * @param message text
 * @returns an engine diagnostic from server `ts`
 */
export function diag(severity: EngineDiagnostic['severity'], r: Range, message = `${severity} here`): EngineDiagnostic {
  return { serverId: 'ts', severity, range: r, message };
}

/**
 * @param title action title
 * @param extra fields to set
 * @returns a code action from server `ts`
 */
export function codeAction(title: string, extra: Partial<CodeActionItem> = {}): CodeActionItem {
  return { serverId: 'ts', title, needsResolve: false, raw: null, ...extra };
}
