/**
 * A keyless, offline agent harness (harness-notes §3.3, variant B): the real DSH agent spine and
 * the real file, sandbox, approval, subprocess and timeout services, the plugin under test, and
 * a scripted `llm/stream` listener in place of a model. No adapter, no key, no network.
 *
 * The scripted model plays queued responses (tool calls with given arguments, then a final text)
 * and records every request it was sent, so a test can assert the tool result text exactly as
 * the model saw it. An `approval/request` answerer can be set per test. Node 22 only: the agent
 * loop uses `Promise.withResolvers`; run with `node_modules/.bin/node`.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Fiber, Plugin } from '@deepseek-ai/cordis';
import { Context as CordisContext } from '@deepseek-ai/cordis';
import type { Agent, AgentHandle } from '@deepseek-ai/dsh-agent';
import { AgentRegistry } from '@deepseek-ai/dsh-agent';
import { AgentLoop } from '@deepseek-ai/dsh-agent-loop';
import { SandboxedFileSystem } from '@deepseek-ai/dsh-fs-sandbox';
import * as fsObservationPolicy from '@deepseek-ai/dsh-fs-observation-policy';
import type { ContentBlock, GenerateOptions, StreamChunk, ToolResultBlock } from '@deepseek-ai/dsh-llm';
import { CallId, createUserMessage, LlmRuntime } from '@deepseek-ai/dsh-llm';
import type { SandboxMode } from '@deepseek-ai/dsh-sandbox';
import { SandboxPolicyService, setSandboxMode } from '@deepseek-ai/dsh-sandbox-policy';
import type { SessionEvent, SessionEventType } from '@deepseek-ai/dsh-session';
import { SessionId, SessionStore } from '@deepseek-ai/dsh-session';
import { LocalSubprocessRuntime } from '@deepseek-ai/dsh-subprocess-local';
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import * as timeoutPolicy from '@deepseek-ai/dsh-tool-call-timeout-policy';
import type { ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import { ToolRuntime } from '@deepseek-ai/dsh-tools';
import type { ApprovalOutcome } from '@deepseek-ai/dsh-user-approval';
import { ApprovalService } from '@deepseek-ai/dsh-user-approval';

/** Provider route and model id the scripted agents use; no adapter is registered for them. */
export const SCRIPTED_PROVIDER = 'scripted';
/** Model id of {@link SCRIPTED_PROVIDER}. */
export const SCRIPTED_MODEL = 'scripted-1';

/** One tool call the scripted model makes. `arguments` is sent as JSON (a string is sent verbatim). */
export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
  /** Call id; default `call_<n>`, counted per model. */
  id?: string;
}

/** One model response: tool calls (optionally after some text), or a final text. */
export type ScriptedResponse = { toolCalls: ScriptedToolCall[]; text?: string } | { text: string };

/** A tool result block the model was sent, flattened to its text. */
export interface SeenToolResult {
  callId: string;
  isError: boolean;
  text: string;
}

/**
 * @param content model-facing content blocks
 * @returns the text blocks joined with newlines (other blocks ignored)
 */
export function textOf(content: readonly ContentBlock[]): string {
  return content
    .filter((block) => block.type === 'text')
    .map((block) => (block as { text: string }).text)
    .join('\n');
}

/**
 * The scripted model: an `llm/stream` waterfall listener that answers each request with the next
 * queued {@link ScriptedResponse} and records the request. When the queue is empty it answers a
 * fixed final text and counts an overrun, so a test can assert the script was played exactly.
 */
export class ScriptedModel {
  /** Every request the model was sent, in order (messages as the provider would see them). */
  readonly requests: GenerateOptions[] = [];
  /** Requests answered after the queue ran out. */
  overruns = 0;
  readonly #queue: ScriptedResponse[] = [];
  #nextCallId = 0;

  /**
   * @param responses responses to play, in order, one per model request
   */
  enqueue(...responses: ScriptedResponse[]): void {
    this.#queue.push(...responses);
  }

  /** @returns responses queued but not yet played */
  get remaining(): number {
    return this.#queue.length;
  }

  /**
   * Answers one request (the `llm/stream` listener body).
   * @param options the fully assembled request
   * @yields the scripted response as stream chunks
   */
  async *stream(options: GenerateOptions): AsyncGenerator<StreamChunk> {
    this.requests.push(options);
    const response = this.#queue.shift();
    if (response === undefined) this.overruns += 1;
    const next = response ?? { text: 'scripted model: no response was queued for this request' };
    let index = 0;
    if (next.text !== undefined) {
      yield { type: 'block-start', index, blockType: 'text' };
      yield { type: 'text-delta', index, text: next.text };
      yield { type: 'block-end', index, block: { type: 'text', text: next.text } };
      index += 1;
    }
    const calls = 'toolCalls' in next ? next.toolCalls : [];
    for (const call of calls) {
      const id = CallId(call.id ?? `call_${++this.#nextCallId}`);
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      yield { type: 'block-start', index, blockType: 'tool-call' };
      yield { type: 'tool-call-delta', index, id, name: call.name, argumentsDelta: args };
      yield { type: 'block-end', index, block: { type: 'tool-call', id, name: call.name, arguments: args } };
      index += 1;
    }
    yield { type: 'finish', reason: { kind: calls.length > 0 ? 'tool-calls' : 'stop' } };
  }

  /**
   * @param callId a tool call id
   * @returns the tool result for that call as the model was sent it (first request carrying it), or undefined
   */
  seenToolResult(callId: string): SeenToolResult | undefined {
    for (const request of this.requests) {
      for (const message of request.messages) {
        for (const block of message.content) {
          if (block.type !== 'tool-result') continue;
          const result = block as ToolResultBlock;
          if (result.toolCallId !== callId) continue;
          return { callId, isError: result.isError === true, text: textOf(result.content) };
        }
      }
    }
    return undefined;
  }

  /**
   * @param requestIndex which request (default: the first)
   * @returns the tool names the model was offered in that request
   */
  offeredTools(requestIndex = 0): string[] {
    return (this.requests[requestIndex]?.tools ?? []).map((tool) => tool.name);
  }
}

/** One settled tool execution, as the `tools/result` observers saw it (includes the structured value). */
export interface RecordedToolResult {
  callId: string;
  name: string;
  arguments: unknown;
  result: ToolExecutionResult;
}

/** One approval question the answerer saw. */
export interface RecordedApproval {
  toolName: string;
  callId?: string;
  reason?: string;
  answered: ApprovalOutcome | 'passed-on';
}

/** How to build a harness. */
export interface ScriptedAgentOptions {
  /** Fallback workspace root of the sandbox policy and cwd of the fs backend (agents use their own cwd). */
  workspace: string;
  /** The deployment's default sandbox mode (`dsh-sandbox-policy` `mode`). */
  sandboxMode: SandboxMode;
  /** Config of the plugin under test (validated by its schema). */
  pluginConfig?: Record<string, unknown>;
  /** The plugin to mount; default: `src/index.ts` of this package. */
  plugin?: Plugin;
  /** More harness plugins mounted before the plugin under test (e.g. `@deepseek-ai/dsh-tool-fs` for `read`/`edit`). */
  extraPlugins?: Array<{ plugin: Plugin; config?: Record<string, unknown> }>;
}

/** Loads the plugin under test lazily, so this module imports even while it does not. */
async function defaultPlugin(): Promise<Plugin> {
  return (await import('../../src/index.ts')) as Plugin;
}

/**
 * A mounted keyless agent composition. Create with {@link ScriptedAgentHarness.start}; always
 * {@link ScriptedAgentHarness.dispose} (it stops agents, servers and every service).
 */
export class ScriptedAgentHarness {
  /** The root context every service is mounted on. */
  readonly ctx: Context;
  /** The scripted model answering `llm/stream`. */
  readonly model = new ScriptedModel();
  /** The plugin under test's fiber (dispose it to unload only the plugin). */
  readonly pluginFiber: Fiber;
  /** What the `approval/request` answerer replies; `undefined` passes the question on (→ `unavailable`). */
  approvalAnswer: ApprovalOutcome | undefined = undefined;
  /** Every approval question the answerer saw. */
  readonly approvals: RecordedApproval[] = [];
  /** Every settled tool execution, with its structured value. */
  readonly toolResults: RecordedToolResult[] = [];
  readonly #handles: AgentHandle[] = [];
  #disposed = false;

  private constructor(ctx: Context, pluginFiber: Fiber) {
    this.ctx = ctx;
    this.pluginFiber = pluginFiber;
  }

  /**
   * Mounts the composition (order as harness-notes §3.3) and the listeners.
   * @param options workspace, sandbox mode, plugin and its config
   * @returns the started harness
   */
  static async start(options: ScriptedAgentOptions): Promise<ScriptedAgentHarness> {
    if (!('withResolvers' in Promise)) {
      throw new Error(`the agent loop needs Node 22 (Promise.withResolvers); run with node_modules/.bin/node (this is ${process.version})`);
    }
    const plugin = options.plugin ?? (await defaultPlugin());
    const ctx: Context = new CordisContext();
    try {
      await ctx.plugin(LlmRuntime);
      await ctx.plugin(SessionStore);
      await ctx.plugin(SystemPrompt);
      await ctx.plugin(ToolRuntime);
      await ctx.plugin(AgentRegistry);
      await ctx.plugin(ApprovalService, { policy: 'ask' });
      await ctx.plugin(SandboxPolicyService, { mode: options.sandboxMode, workspaceRoot: options.workspace });
      await ctx.plugin(SandboxedFileSystem, { cwd: options.workspace });
      await ctx.plugin(LocalSubprocessRuntime);
      await ctx.plugin(fsObservationPolicy);
      await ctx.plugin(timeoutPolicy);
      for (const extra of options.extraPlugins ?? []) await ctx.plugin(extra.plugin, extra.config ?? {});
      const pluginFiber = await ctx.plugin(plugin, options.pluginConfig ?? {});
      await ctx.plugin(AgentLoop, { agents: [] });
      const harness = new ScriptedAgentHarness(ctx, pluginFiber);
      harness.#listen();
      return harness;
    } catch (error) {
      await ctx.fiber.dispose().catch(() => {
        // the mount error is the one worth reporting
      });
      throw error;
    }
  }

  #listen(): void {
    this.ctx.on('llm/stream', (options) => this.model.stream(options));
    this.ctx.on('approval/request', async (request, next) => {
      const answer = this.approvalAnswer;
      this.approvals.push({
        toolName: request.toolName,
        ...(request.callId !== undefined ? { callId: request.callId } : {}),
        ...(request.reason !== undefined ? { reason: request.reason } : {}),
        answered: answer ?? 'passed-on',
      });
      return answer ?? next();
    });
    this.ctx.on('tools/result', (exec: Readonly<ToolExecution>, result: Readonly<ToolExecutionResult>) => {
      this.toolResults.push({ callId: exec.callId, name: exec.name, arguments: exec.arguments, result });
      return undefined;
    });
  }

  /**
   * Creates a live agent on a fresh session whose cwd is `cwd`.
   * @param cwd the session's workspace (`meta.cwd`); must be absolute
   * @param sandboxMode when given, the session's own mode (a `sandbox/mode` switch event), else the default
   * @returns the agent
   */
  async createAgent(cwd: string, sandboxMode?: SandboxMode): Promise<Agent> {
    const handle = await this.ctx.agents.create({
      sessionId: SessionId(randomUUID()),
      meta: { cwd },
      agentOptions: { provider: SCRIPTED_PROVIDER, model: SCRIPTED_MODEL },
    });
    this.#handles.push(handle);
    if (sandboxMode !== undefined) setSandboxMode(handle.agent.session, sandboxMode);
    return handle.agent;
  }

  /**
   * Queues `responses` on the model, sends `text` as a user follow-up and waits until the agent is idle.
   * @param agent the agent
   * @param text the user's prompt
   * @param responses what the model answers, one per request of this turn
   * @param timeoutMs how long the turn may take before it is cancelled and the call fails
   */
  async prompt(agent: Agent, text: string, responses: ScriptedResponse[], timeoutMs = 90_000): Promise<void> {
    this.model.enqueue(...responses);
    agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const outcome = await Promise.race([agent.whenIdle().then(() => 'idle' as const), timedOut]);
      if (outcome === 'timeout') {
        agent.cancel({ kind: 'user' });
        await agent.whenIdle();
        throw new Error(
          `agent turn did not finish within ${timeoutMs} ms; events: ${agent.session.events.map((event) => event.type).join(', ')}`,
        );
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * @param callId a tool call id
   * @returns the recorded execution of that call
   * @throws when the call never settled
   */
  toolResult(callId: string): RecordedToolResult {
    const found = this.toolResults.find((entry) => entry.callId === callId);
    if (!found) throw new Error(`no tool result recorded for ${callId}; recorded: ${this.toolResults.map((entry) => entry.callId).join(', ')}`);
    return found;
  }

  /**
   * Stops every agent, then the plugin (so it stops its servers while the subprocess service is
   * still up), then every service. Idempotent. (Disposing the whole root at once is what
   * `tests/composition/loader.e2e.ts` covers.)
   */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const handle of this.#handles.splice(0).toReversed()) {
      await handle.dispose();
    }
    await this.pluginFiber.dispose();
    await this.ctx.fiber.dispose();
  }
}

/**
 * @param agent a live agent
 * @param type a session event type
 * @returns the agent's session events of that type, in log order
 */
export function eventsOf<T extends SessionEventType>(agent: Agent, type: T): SessionEvent<T>[] {
  return agent.session.events.filter((event): event is SessionEvent<T> => event.type === type);
}

/**
 * @param agent a live agent
 * @returns the types of its session events in log order (for failure messages)
 */
export function eventTypes(agent: Agent): string[] {
  return agent.session.events.map((event) => event.type);
}
