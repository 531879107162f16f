import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FsError, FsTargetKey, FsVersion, type FsWriteIntent } from '@deepseek-ai/dsh-fs';
import type { PreparedFile } from '../../src/edits/preflight.ts';
import { decideWriteIntent, type IntentEvents } from '../../src/edits/write-intent.ts';
import { isActionError } from '../../src/errors.ts';

const target = { targetKey: FsTargetKey('/w/a.ts'), displayPath: '/w/a.ts' };
const v1 = FsVersion('v1');

function existing(): PreparedFile {
  return {
    target,
    path: '/w/a.ts',
    snapshot: { exists: true, text: 'a', version: v1, bom: false },
    before: 'a',
    after: 'b',
    bom: false,
    operation: 'update',
    editCount: 1,
    changed: true,
  };
}

function absent(): PreparedFile {
  return { ...existing(), snapshot: { exists: false }, before: null, operation: 'create' };
}

/** A waterfall with one policy listener (or none, when `answer` is omitted: the default wins). */
function events(answer?: (own: FsWriteIntent | undefined) => FsWriteIntent | undefined): IntentEvents {
  return {
    waterfall: (async (_name: string, _target: unknown, _actor: unknown, next: () => FsWriteIntent | undefined) =>
      answer ? answer(next()) : next()) as unknown as IntentEvents['waterfall'],
  };
}

describe('decideWriteIntent', () => {
  it('defaults to replaceIfVersion of the version read, never to an unconditional write', async () => {
    const decision = await decideWriteIntent(events(), existing(), undefined);
    assert.deepEqual(decision, { intent: { kind: 'replaceIfVersion', version: v1 }, current: true });
  });

  it('defaults to createIfAbsent for a file the edit creates', async () => {
    const decision = await decideWriteIntent(events(), absent(), undefined);
    assert.deepEqual(decision, { intent: { kind: 'createIfAbsent' }, current: true });
  });

  it('uses an agreeing policy answer, the actor being current', async () => {
    const decision = await decideWriteIntent(events(() => ({ kind: 'replaceIfVersion', version: v1 })), existing(), {});
    assert.deepEqual(decision, { intent: { kind: 'replaceIfVersion', version: v1 }, current: true });
  });

  it('keeps its own guard when the actor never observed an existing file (createIfAbsent), and marks it not current', async () => {
    const decision = await decideWriteIntent(events(() => ({ kind: 'createIfAbsent' })), existing(), undefined);
    assert.deepEqual(decision, { intent: { kind: 'replaceIfVersion', version: v1 }, current: false });
  });

  it('keeps its own guard when the actor observed an older version, and marks it not current', async () => {
    const older = FsVersion('v0');
    const decision = await decideWriteIntent(events(() => ({ kind: 'replaceIfVersion', version: older })), existing(), {});
    assert.deepEqual(decision, { intent: { kind: 'replaceIfVersion', version: v1 }, current: false });
  });

  it('tightens an unconditional answer to its own guard', async () => {
    const decision = await decideWriteIntent(events(() => undefined), existing(), {});
    assert.deepEqual(decision.intent, { kind: 'replaceIfVersion', version: v1 });
  });

  it('treats a throwing listener as a veto', async () => {
    await assert.rejects(
      decideWriteIntent(events(() => { throw new FsError('nope', 'FS_NOT_OBSERVED'); }), existing(), {}),
      (error) => isActionError(error) && error.code === 'LSP_ACTION_CONFLICT',
    );
    await assert.rejects(
      decideWriteIntent(events(() => { throw new Error('policy says no'); }), existing(), {}),
      (error) => isActionError(error) && error.code === 'LSP_ACTION_WRITE_FAILED' && /policy says no/.test(error.message),
    );
  });
});
