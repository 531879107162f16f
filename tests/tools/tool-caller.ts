/**
 * Calls model tools the way the agent loop does (`ctx.tools.execute` with the suite's agent)
 * and returns what the model reads and what a program gets, for the real-server tool tests.
 */
import assert from 'node:assert/strict';
import type { Agent } from '@deepseek-ai/dsh-agent';
import { CallId } from '@deepseek-ai/dsh-llm';
import { textOf, type ScriptedAgentHarness } from '../support/scripted-agent.ts';

/** One tool call as the model reads it and as a program gets it. */
export interface Outcome<V> {
  isError: boolean;
  /** The text blocks the model is sent. */
  text: string;
  /** The structured value (zero-based positions). */
  value: V;
  /** The presentation meta (cards). */
  meta: unknown;
  /** The stable error code, on failure. */
  code: unknown;
}

/** `call` returns any outcome; `ok` asserts success first. */
export interface ToolCaller {
  call<V>(name: string, args: Record<string, unknown>): Promise<Outcome<V>>;
  ok<V>(name: string, args: Record<string, unknown>): Promise<Outcome<V>>;
}

/**
 * @param harness the suite's harness (read at call time: suites assign it in `before`)
 * @param agent the suite's agent (likewise)
 * @param prefix call-id prefix, unique per suite
 * @returns the two call helpers
 */
export function toolCaller(harness: () => ScriptedAgentHarness, agent: () => Agent, prefix: string): ToolCaller {
  let calls = 0;
  const call = async <V>(name: string, args: Record<string, unknown>): Promise<Outcome<V>> => {
    const result = await harness().ctx.tools.execute({
      callId: CallId(`${prefix}-${++calls}`),
      name,
      arguments: args,
      agent: agent(),
      signal: AbortSignal.timeout(60_000),
    });
    return { isError: result.isError, text: textOf(result.content), value: result.value as V, meta: result.meta, code: result.error?.info?.code };
  };
  const ok = async <V>(name: string, args: Record<string, unknown>): Promise<Outcome<V>> => {
    const outcome = await call<V>(name, args);
    assert.equal(outcome.isError, false, `${name} ${JSON.stringify(args)} failed: ${outcome.text}`);
    return outcome;
  };
  return { call, ok };
}
