/**
 * The catalog: v1 actions first with their `writes` flags, then the additive ones; every
 * action registers and parses its own params.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActionRegistry } from '../../src/actions/action-registry.ts';
import { BUILTIN_ACTIONS, V1_ACTION_IDS } from '../../src/actions/builtin-actions.ts';

describe('BUILTIN_ACTIONS', () => {
  it('is the v1 catalog first, then the additive actions', () => {
    const registry = new ActionRegistry();
    for (const action of BUILTIN_ACTIONS) registry.register(action);
    const list = registry.list();
    assert.deepEqual(list.slice(0, 4).map(({ action, writes }) => [action, writes]), [
      ['diagnostics.get', false],
      ['completion.get', false],
      ['quickfix.apply', true],
      ['format', true],
    ]);
    assert.deepEqual(V1_ACTION_IDS, list.slice(0, 4).map((entry) => entry.action));
    assert.deepEqual(
      list.slice(4).map(({ action, writes }) => `${action}:${writes}`),
      [
        'codeActions.list:false',
        'codeAction.apply:true',
        'rename:true',
        'organizeImports:true',
        'symbols.get:false',
        'signature.get:false',
        'inlayHints.get:false',
        'hover.get:false',
        'definition.get:false',
        'references.get:false',
        'diagnostics.workspace:false',
        'implementation.get:false',
        'callHierarchy.get:false',

        'format.edits:false',
        'rename.prepare:false',
        'rename.edits:false',
      ],
    );
    for (const entry of list) assert.ok(entry.description.length > 20, entry.action);
  });
});
