/**
 * SandboxWriteAuthorizer against the real dsh-sandbox-policy, dsh-fs-sandbox / dsh-fs-local and
 * dsh-user-approval services, outside any agent turn. Approvals inside a real turn are in
 * escalation-turn.spec.ts.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Context } from '@deepseek-ai/cordis';
import type { SandboxMode } from '@deepseek-ai/dsh-sandbox';
import { setSandboxMode } from '@deepseek-ai/dsh-sandbox-policy';
import { type ActionError, isActionError } from '../../src/errors.ts';
import { SandboxWriteAuthorizer } from '../../src/permission/sandbox-write-authorizer.ts';
import type { WriteAuthorizationRequest } from '../../src/permission/write-authorizer-types.ts';
import { makeWorkspace, type Workspace } from '../edits/workspace-fixture.ts';
import { createAgent, type Harness, type HarnessOptions, mountHarness } from '../support/harness-mount.ts';

const HINT = /\[sandbox: escalation available — retry this exact operation once with sandbox_permissions/;
const MARKER = '[sandbox: file access denied under read-only mode]';

let ws: Workspace;
const mounted: Harness[] = [];

beforeEach(() => {
  ws = makeWorkspace();
});

afterEach(async () => {
  for (const harness of mounted.splice(0)) await harness.dispose();
  ws.remove();
});

async function mount(mode: SandboxMode, extra: Partial<HarnessOptions> = {}): Promise<{ h: Harness; auth: SandboxWriteAuthorizer }> {
  const h = await mountHarness({ mode, workspace: ws.root, ...extra });
  mounted.push(h);
  return { h, auth: new SandboxWriteAuthorizer(h.ctx) };
}

function ask(extra: Partial<WriteAuthorizationRequest> = {}): WriteAuthorizationRequest {
  return { root: ws.root, toolName: 'lsp_format', signal: new AbortController().signal, ...extra };
}

async function refusal(promise: Promise<unknown>): Promise<ActionError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isActionError(error), `expected an ActionError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}

const escalate = (requestedMode: SandboxMode = 'workspace-write') => ({ requestedMode, justification: 'format the file' });

describe('SandboxWriteAuthorizer', () => {
  it('grants without a policy when no sandbox policy service is composed', async () => {
    const auth = new SandboxWriteAuthorizer(new Context());
    const actor = {};
    assert.equal(auth.canEscalate, false);
    assert.deepEqual(await auth.authorize(ask({ actor })), { actor });
  });

  it('grants without a policy when the fs never confines (dsh-fs-local), even under a read-only preset', async () => {
    const { auth } = await mount('read-only', { fs: 'local' });
    assert.equal(auth.canEscalate, false);
    assert.deepEqual(await auth.authorize(ask()), {});
    // nothing confines, so an escalation has nothing to widen: no ask, same grant
    assert.deepEqual(await auth.authorize(ask({ escalation: escalate() })), {});
  });

  it('grants the resolved policy under workspace-write, and canEscalate with a confining fs', async () => {
    const { auth } = await mount('workspace-write');
    assert.equal(auth.canEscalate, true);
    const grant = await auth.authorize(ask());
    assert.deepEqual(grant.policy, { mode: 'workspace-write', workspaceRoot: ws.root });
  });

  it('refuses read-only with the sandbox marker, and no escalation hint when no ask could succeed', async () => {
    const { auth } = await mount('read-only');
    const error = await refusal(auth.authorize(ask()));
    assert.equal(error.code, 'LSP_ACTION_READ_ONLY');
    assert.ok(error.message.startsWith(MARKER), error.message);
    assert.doesNotMatch(error.message, HINT);
  });

  it('adds the escalation hint when an approval service and a live agent are there', async () => {
    const { h, auth } = await mount('read-only', { agents: { approval: 'ask' } });
    const handle = await createAgent(h.ctx, ws.root);
    const error = await refusal(auth.authorize(ask({ agent: handle.agent, session: handle.agent.session })));
    assert.equal(error.code, 'LSP_ACTION_READ_ONLY');
    assert.ok(error.message.startsWith(MARKER));
    assert.match(error.message, HINT);
    await handle.dispose();
  });

  it("follows the session's own sandbox/mode override", async () => {
    const { h, auth } = await mount('workspace-write', { agents: { approval: 'ask' } });
    const handle = await createAgent(h.ctx, ws.root);
    setSandboxMode(handle.agent.session, 'read-only');
    const error = await refusal(auth.authorize(ask({ session: handle.agent.session })));
    assert.equal(error.code, 'LSP_ACTION_READ_ONLY');
    await handle.dispose();
  });

  it('refuses an escalation that is not strictly wider, without asking', async () => {
    const { auth } = await mount('workspace-write');
    const error = await refusal(auth.authorize(ask({ escalation: escalate('workspace-write') })));
    assert.equal(error.code, 'LSP_ACTION_INVALID_ARGS');
    assert.match(error.message, /not strictly wider/);
  });

  it('fails closed without an approval service', async () => {
    const { auth } = await mount('read-only');
    const error = await refusal(auth.authorize(ask({ escalation: escalate() })));
    assert.equal(error.code, 'LSP_ACTION_APPROVAL_UNAVAILABLE');
    assert.match(error.message, /no approval service is composed/);
  });

  it('fails closed without an agent (an editor call)', async () => {
    const { auth } = await mount('read-only', { agents: { approval: 'ask' } });
    const error = await refusal(auth.authorize(ask({ escalation: escalate() })));
    assert.equal(error.code, 'LSP_ACTION_APPROVAL_UNAVAILABLE');
    assert.match(error.message, /no agent/);
  });

  it('fails closed for a direct call outside an open turn, before asking anyone', async () => {
    const { h, auth } = await mount('read-only', { agents: { approval: 'ask' } });
    let asked = 0;
    h.ctx.on('approval/request', async () => {
      asked += 1;
      return 'allowed-once';
    });
    const handle = await createAgent(h.ctx, ws.root);
    const error = await refusal(
      auth.authorize(ask({ agent: handle.agent, session: handle.agent.session, callId: 'c1', escalation: escalate() })),
    );
    assert.equal(error.code, 'LSP_ACTION_APPROVAL_UNAVAILABLE');
    assert.match(error.message, /outside an open turn/);
    assert.equal(asked, 0);
    await handle.dispose();
  });

  it('reports an aborted call as cancelled, not as a refusal', async () => {
    const { auth } = await mount('read-only');
    const controller = new AbortController();
    controller.abort();
    const error = await refusal(auth.authorize(ask({ signal: controller.signal, escalation: escalate() })));
    assert.equal(error.code, 'LSP_ACTION_CANCELLED');
  });
});
