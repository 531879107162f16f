/**
 * One action, defined once, served by both faces: the model tools and the editor protocol
 * (and the CLI). Params and results use the editor protocol's wire shapes: zero-based UTF-16
 * positions, `filePath` absolute or relative to `workspaceRoot`.
 */
import type { SandboxExecutionPolicy } from '@deepseek-ai/dsh-sandbox';
import type { Config } from '../config.ts';
import type { WorkspaceWriter } from '../edits/write-types.ts';
import type { LspEngineApi } from '../lsp/engine-types.ts';

/** Long-lived services an action runs against. */
export interface ActionServices {
  engine: LspEngineApi;
  writer: WorkspaceWriter;
  config: Config;
}

/** Write permission already granted by the runner (sandbox preset checked, escalation approved). */
export interface WriteGrant {
  /** Policy to pass to the write path; undefined when the fs backend does not confine. */
  policy?: SandboxExecutionPolicy;
  /** Actor for fs/write-intent and fs/observed (the tool's exec; undefined for editor writes). */
  actor?: object;
}

/** One run of an action. */
export interface ActionInvocation {
  /** Absolute, canonical workspace root. */
  root: string;
  signal: AbortSignal;
  /** Present exactly for actions with `writes: true`. */
  write?: WriteGrant;
}

/** An action of the registry. */
export interface ActionDefinition<P = unknown, R = unknown> {
  /** Stable id, e.g. `diagnostics.get`. */
  id: string;
  /** Whether it may change files (gated by the sandbox preset before any server round-trip). */
  writes: boolean;
  /** One sentence for catalogs. */
  description: string;
  /**
   * Validates raw wire params.
   * @throws ActionError `LSP_ACTION_INVALID_ARGS` naming the offending field
   */
  parse(raw: unknown): P;
  /** Runs it. Throws `ActionError`s. */
  run(params: P, services: ActionServices, invocation: ActionInvocation): Promise<R>;
}
