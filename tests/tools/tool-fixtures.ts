/**
 * Shared fixtures of the tool tests: wire-shaped diagnostics and results, a stub runner that
 * records every request, and a minimal agent whose session has a cwd.
 */
import type { Agent } from '@deepseek-ai/dsh-agent';
import type { WireDiagnostic } from '../../src/actions/action-results.ts';
import type { RunRequest } from '../../src/actions/action-runner.ts';
import { resolveConfig, type Config } from '../../src/config.ts';
import type { LspToolDeps } from '../../src/tools/run-tool-action.ts';

/** The workspace every fixture uses. */
export const WS = '/ws';

/**
 * @param line zero-based line
 * @param message the message
 * @param extra fields to override
 * @returns a wire diagnostic (error, typescript 2322 unless overridden)
 */
export function diag(line: number, message: string, extra: Partial<WireDiagnostic> = {}): WireDiagnostic {
  return {
    severity: 1,
    range: { start: { line, character: 4 }, end: { line, character: 9 } },
    message,
    source: 'typescript',
    code: 2322,
    serverId: 'typescript',
    ...extra,
  };
}

/**
 * @param filePath the file
 * @param diagnostics its diagnostics
 * @param extra fields to override
 * @returns a `diagnostics.get` result
 */
export function diagnosticsResult(filePath: string, diagnostics: WireDiagnostic[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind: 'diagnostics', filePath, diagnostics, truncated: false, total: diagnostics.length, state: 'fresh', version: 1, servers: [], ...extra };
}

/** A runner that answers from a function and records each request. */
export interface StubRunner {
  requests: RunRequest[];
  run(request: RunRequest): Promise<unknown>;
}

/**
 * @param answer what to return (or throw) for a request
 * @returns the stub
 */
export function stubRunner(answer: (request: RunRequest) => unknown): StubRunner {
  const requests: RunRequest[] = [];
  return {
    requests,
    async run(request) {
      requests.push(request);
      return answer(request);
    },
  };
}

/**
 * @param runner the stub runner
 * @param options escalation advertisement and config overrides
 * @returns tool deps
 */
export function toolDeps(runner: StubRunner, options: { canEscalate?: boolean; config?: Record<string, unknown> } = {}): LspToolDeps & { config: Config } {
  return {
    runner: runner as unknown as LspToolDeps['runner'],
    authorizer: { canEscalate: options.canEscalate ?? false },
    config: resolveConfig(options.config ?? {}),
  };
}

/**
 * @param cwd session cwd (`null` for a session without one)
 * @param id session id
 * @returns a stand-in agent carrying only what the tools (and the sandbox policy) read: session id, cwd, events
 */
export function fakeAgent(cwd: string | null = WS, id = 'session-1'): Agent {
  return { id, session: { header: { id, ...(cwd === null ? {} : { cwd }) }, events: [] } } as unknown as Agent;
}

/**
 * @param text any text
 * @returns whether it has no lone UTF-16 surrogate (a cut inside a pair would leave one)
 */
export function wellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}
