/**
 * `implementation.get` (additive, read-only, issue 22): the implementations of the interface,
 * abstract member or type at a zero-based position (or named by `symbol`) — classes that
 * implement an interface, methods that implement a member. Same params and result shape as
 * `definition.get`; ordered by file then position, capped. A server that does not offer
 * `textDocument/implementation` (pyright) is `LSP_ACTION_UNSUPPORTED`.
 */
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { LocationsParams, LocationsResult } from './action-results.ts';
import { readLocationsParams, runLocationsQuery } from './definition-get.ts';

/** `implementation.get`: `{ filePath, workspaceRoot, position, text?, maxItems?, withSource? }` (or `symbol`). */
export const implementationGetAction: ActionDefinition<LocationsParams, LocationsResult> = {
  id: 'implementation.get',
  writes: false,
  description: 'Go to implementation: what implements the interface, abstract member or type at a zero-based position (or named by symbol) (read-only).',
  parse: (raw) => readLocationsParams(new ActionParams(raw)),
  run: (params, services, invocation) =>
    runLocationsQuery('implementation', params, services, invocation, (r) => services.engine.implementation(r.file.target, r.position, { signal: invocation.signal }), true),
};
