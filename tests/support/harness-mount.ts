/**
 * Keyless, offline mounts of the REAL harness services for tests (shared/harness-notes.md §3).
 *
 * - {@link mountHarness} without `agents`: variant A — a plain cordis `Context` with
 *   dsh-system-prompt, dsh-tools, dsh-sandbox-policy `{mode, workspaceRoot}`, dsh-fs-sandbox
 *   `{cwd}` (or dsh-fs-local, an fs that never confines), dsh-subprocess-local,
 *   dsh-fs-observation-policy, dsh-tool-call-timeout-policy.
 * - with `agents`: variant B — additionally dsh-llm, dsh-session, dsh-agent, dsh-user-approval
 *   and dsh-agent-loop, so a real agent turn can run against a scripted `llm/stream` listener
 *   ({@link scriptModel}) with no model key. Needs Node >= 22.19.
 */
import { randomUUID } from 'node:crypto';
import { Context } from '@deepseek-ai/cordis';
import { type AgentHandle, AgentRegistry } from '@deepseek-ai/dsh-agent';
import { AgentLoop } from '@deepseek-ai/dsh-agent-loop';
import { LocalFileSystem } from '@deepseek-ai/dsh-fs-local';
import * as observationPolicy from '@deepseek-ai/dsh-fs-observation-policy';
import { SandboxedFileSystem } from '@deepseek-ai/dsh-fs-sandbox';
import { CallId, createUserMessage, LlmRuntime, type StreamChunk } from '@deepseek-ai/dsh-llm';
import type { SandboxMode } from '@deepseek-ai/dsh-sandbox';
import { SandboxPolicyService } from '@deepseek-ai/dsh-sandbox-policy';
import { SessionId, SessionStore } from '@deepseek-ai/dsh-session';
import { LocalSubprocessRuntime } from '@deepseek-ai/dsh-subprocess-local';
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import * as timeoutPolicy from '@deepseek-ai/dsh-tool-call-timeout-policy';
import { ToolRuntime } from '@deepseek-ai/dsh-tools';
import { type ApprovalPolicy, ApprovalService } from '@deepseek-ai/dsh-user-approval';

/** What to mount. */
export interface HarnessOptions {
  /** The deployment's sandbox mode (dsh-sandbox-policy `mode`). */
  mode: SandboxMode;
  /** Absolute workspace: the policy's fallback `workspaceRoot` and the fs `cwd`. */
  workspace: string;
  /** `sandbox` (default): dsh-fs-sandbox, which confines writes; `local`: dsh-fs-local, which never does. */
  fs?: 'sandbox' | 'local';
  /** Mount dsh-fs-observation-policy (default: true). */
  observationPolicy?: boolean;
  /** Mount the agent spine and dsh-user-approval with this policy (variant B). */
  agents?: { approval: ApprovalPolicy };
}

/** A mounted harness. */
export interface Harness {
  ctx: Context;
  /** Disposes every service and live agent. */
  dispose(): Promise<void>;
}

/**
 * @param options sandbox mode, workspace, optional parts
 * @returns the context with the real services mounted
 */
export async function mountHarness(options: HarnessOptions): Promise<Harness> {
  const ctx = new Context();
  if (options.agents) {
    await ctx.plugin(LlmRuntime);
    await ctx.plugin(SessionStore);
  }
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  if (options.agents) {
    await ctx.plugin(AgentRegistry);
    await ctx.plugin(ApprovalService, { policy: options.agents.approval });
  }
  await ctx.plugin(SandboxPolicyService, { mode: options.mode, workspaceRoot: options.workspace });
  if (options.fs === 'local') await ctx.plugin(LocalFileSystem, { cwd: options.workspace });
  else await ctx.plugin(SandboxedFileSystem, { cwd: options.workspace });
  await ctx.plugin(LocalSubprocessRuntime);
  if (options.observationPolicy !== false) await ctx.plugin(observationPolicy);
  await ctx.plugin(timeoutPolicy);
  if (options.agents) await ctx.plugin(AgentLoop, { agents: [] });
  return { ctx, dispose: () => ctx.root.fiber.dispose() };
}

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** Observes a scripted model. */
export interface ScriptedModel {
  /** Number of model requests served so far. */
  readonly requests: number;
}

/**
 * Answers `llm/stream` without a model: request N (1-based) makes the tool calls of `steps[N-1]`
 * (call ids `call_N_i`); once the steps run out, it answers a text and stops the turn.
 * @param ctx a variant-B harness context
 * @param steps tool calls per model request
 * @returns a counter of model requests
 */
export function scriptModel(ctx: Context, steps: ScriptedCall[][]): ScriptedModel {
  const state = { requests: 0 };
  ctx.on('llm/stream', () => {
    state.requests += 1;
    return chunks(steps[state.requests - 1], state.requests);
  });
  return state;
}

async function* chunks(calls: ScriptedCall[] | undefined, request: number): AsyncGenerator<StreamChunk> {
  if (calls === undefined || calls.length === 0) {
    yield { type: 'block-end', index: 0, block: { type: 'text', text: 'done' } };
    yield { type: 'finish', reason: { kind: 'stop' } };
    return;
  }
  for (const [index, call] of calls.entries()) {
    const block = {
      type: 'tool-call' as const,
      id: CallId(`call_${request}_${index}`),
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    };
    yield { type: 'block-end', index, block };
  }
  yield { type: 'finish', reason: { kind: 'tool-calls' } };
}

/**
 * Creates an agent whose session cwd is `workspace` with the scripted fake model.
 * @param ctx a variant-B harness context
 * @param workspace absolute session cwd
 * @returns the owned agent handle
 */
export async function createAgent(ctx: Context, workspace: string): Promise<AgentHandle> {
  return ctx.agents.create({
    sessionId: SessionId(randomUUID()),
    meta: { cwd: workspace },
    agentOptions: { provider: 'fake', model: 'fake-1' },
  });
}

/**
 * Runs one user turn to completion.
 * @param handle the agent
 * @param text the user's message
 */
export async function runTurn(handle: AgentHandle, text: string): Promise<void> {
  handle.agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }));
  await handle.agent.whenIdle();
}
