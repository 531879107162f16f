import type { Agent } from '@deepseek-ai/dsh-agent';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import type { SandboxMode } from '@deepseek-ai/dsh-sandbox';
import type { Session } from '@deepseek-ai/dsh-session';
import { resolve } from 'node:path';
import { abortError, ActionError, isActionError } from '../errors.ts';
import { confinePath, confineRoot, containsTarget, isLexicallyInside, resolveReal } from '../workspace-containment.ts';
import type { WriteAuthorizer } from '../permission/write-authorizer-types.ts';
import type { ActionServices } from './action-definition.ts';
import { checkWorkspaceRoot } from './action-params.ts';
import type { ActionRegistry } from './action-registry.ts';

/** One request to run an action, from any face. */
export interface RunRequest {
  action: string;
  /** Wire params; must carry `workspaceRoot` (absolute). */
  params: unknown;
  signal: AbortSignal;
  /** Session whose sandbox preset applies to writes. */
  session?: Session;
  /** Live agent, for escalation approval. */
  agent?: Agent;
  /** Actor for fs events (the tool's exec); undefined for editor writes. */
  actor?: object;
  /** Requested escalation, already paired. */
  escalation?: { requestedMode: SandboxMode; justification: string };
  callId?: string;
  /** Name for approval asks and audit, e.g. `lsp_format`. */
  toolName: string;
  /** When set, `workspaceRoot` must lie inside this directory (the bound session's cwd). */
  containingRoot?: string;
  /**
   * When set, `workspaceRoot` must lie inside one of these folders with symbolic links followed
   * (the folders `serve` was started with), else `LSP_ACTION_OUTSIDE_WORKSPACE`.
   */
  containingRoots?: readonly string[];
}

/**
 * Runs registry actions: unknown id → `LSP_ACTION_UNKNOWN`, params validated, workspace root
 * checked and confined (`containingRoots`), every file the params name (`filePath`,
 * `filePaths`) confined to the root with symbolic links followed (src/workspace-containment.ts;
 * reads and writes alike, whatever the sandbox mode), write permission decided before any server round-trip, aborts mapped to
 * `LSP_ACTION_TIMEOUT` / `LSP_ACTION_CANCELLED`, anything unexpected wrapped as
 * `LSP_ACTION_SERVER_FAILED` with its message.
 */
export class ActionRunner {
  readonly #registry: ActionRegistry;
  readonly #services: ActionServices;
  readonly #authorizer: WriteAuthorizer;
  readonly #fs: Pick<FileSystem, 'resolve' | 'stat' | 'contains'>;

  /**
   * @param registry the action registry
   * @param services engine, writer, config
   * @param authorizer write permission seam
   * @param fs harness fs, to check the workspace root
   */
  constructor(
    registry: ActionRegistry,
    services: ActionServices,
    authorizer: WriteAuthorizer,
    fs: Pick<FileSystem, 'resolve' | 'stat' | 'contains'>,
  ) {
    this.#registry = registry;
    this.#services = services;
    this.#authorizer = authorizer;
    this.#fs = fs;
  }

  /** @returns the registry this runner serves */
  get registry(): ActionRegistry {
    return this.#registry;
  }

  /**
   * @param request what to run, for whom
   * @returns the action's result (the wire shape of its id)
   * @throws ActionError always a coded error
   */
  async run(request: RunRequest): Promise<unknown> {
    const { signal } = request;
    try {
      const def = this.#registry.get(request.action);
      const params = def.parse(request.params ?? {});
      const root = await this.#checkRoot(
        (params as { workspaceRoot?: unknown }).workspaceRoot,
        request,
        signal,
      );
      await this.#confineFiles(params, root, signal);
      if (signal.aborted) throw abortError(signal);
      // An edit a crash left half-applied here is put back before anything reads the workspace.
      await this.#services.writer.prepare?.(root);
      const write = def.writes
        ? await this.#authorizer.authorize({
            root,
            ...(request.session ? { session: request.session } : {}),
            ...(request.agent ? { agent: request.agent } : {}),
            ...(request.escalation ? { escalation: request.escalation } : {}),
            ...(request.callId ? { callId: request.callId } : {}),
            ...(request.actor ? { actor: request.actor } : {}),
            toolName: request.toolName,
            signal,
          })
        : undefined;
      if (signal.aborted) throw abortError(signal);
      return await def.run(params, this.#services, { root, signal, ...(write ? { write } : {}) });
    } catch (error) {
      throw toActionError(error, signal);
    }
  }

  /** Every file the params name must lie inside the root, symbolic links followed. */
  async #confineFiles(params: unknown, root: string, signal: AbortSignal): Promise<void> {
    const p = params as { filePath?: unknown; filePaths?: unknown; anchorPaths?: unknown };
    if (typeof p.filePath === 'string') await confinePath(this.#fs, root, p.filePath, { field: 'params.filePath', signal });
    for (const key of ['filePaths', 'anchorPaths'] as const) {
      const list = p[key];
      if (!Array.isArray(list)) continue;
      for (const [i, filePath] of list.entries()) {
        if (typeof filePath === 'string') await confinePath(this.#fs, root, filePath, { field: `params.${key}[${i}]`, signal });
      }
    }
  }

  /** The bound session's cwd contains the root as written and with symbolic links followed. */
  async #insideSessionRoot(containing: string, root: string, signal: AbortSignal): Promise<boolean> {
    if (!isInside(resolve(containing), root)) return false;
    const folder = await resolveReal(this.#fs, containing, { field: 'the session cwd', signal });
    return containsTarget(this.#fs, folder, await resolveReal(this.#fs, root, { field: 'params.workspaceRoot', signal }));
  }

  async #checkRoot(raw: unknown, request: RunRequest, signal: AbortSignal): Promise<string> {
    const containing = request.containingRoot;
    const root = resolve(checkWorkspaceRoot(raw, 'params.workspaceRoot'));
    if (containing !== undefined && !(await this.#insideSessionRoot(containing, root, signal))) {
      throw new ActionError(
        'LSP_ACTION_WORKSPACE_REQUIRED',
        `workspace root ${root} is outside the bound session's workspace ${containing}`,
        { paths: [root, containing] },
      );
    }
    // outside the served folders: refused before the root is even looked at
    if (request.containingRoots !== undefined) await confineRoot(this.#fs, request.containingRoots, root, signal);
    let info;
    try {
      info = await this.#fs.stat(await this.#fs.resolve(root, { signal }), signal);
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      throw new ActionError('LSP_ACTION_WORKSPACE_REQUIRED', `workspace root ${root} cannot be read`, { paths: [root] }, { cause: error });
    }
    if (!info || info.type !== 'directory') {
      throw new ActionError('LSP_ACTION_WORKSPACE_REQUIRED', `workspace root ${root} is not a directory`, { paths: [root] });
    }
    return root;
  }
}

/**
 * @param parent directory
 * @param child path
 * @returns whether child is parent or lies below it (lexically)
 */
export function isInside(parent: string, child: string): boolean {
  return isLexicallyInside(parent, child);
}

/**
 * @param error anything thrown by an action
 * @param signal the run's signal
 * @returns a coded ActionError
 */
export function toActionError(error: unknown, signal: AbortSignal): ActionError {
  if (isActionError(error)) return error;
  if (signal.aborted) return abortError(signal);
  const message = error instanceof Error ? error.message : String(error);
  return new ActionError('LSP_ACTION_SERVER_FAILED', message, {}, { cause: error });
}
