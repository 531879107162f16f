/**
 * The shared test bed of the FsWorkspaceWriter specs: a fresh two-file workspace (one CRLF file),
 * the real harness services mounted under workspace-write, and a fresh journal state directory
 * (`DSH_LSP_ACTIONS_STATE_DIR`), per test.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import type { SandboxExecutionPolicy } from '@deepseek-ai/dsh-sandbox';
import { JournalStore } from '../../src/edits/journal-store.ts';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import type { WriteRequest } from '../../src/edits/write-types.ts';
import { type ActionError, isActionError } from '../../src/errors.ts';
import { type Harness, mountHarness } from '../support/harness-mount.ts';
import { fileEdits, makeWorkspace, replace, type Workspace, workspaceEdit } from './workspace-fixture.ts';

/** What a spec uses; fields are valid inside a test. */
export interface WriterBed {
  readonly ws: Workspace;
  readonly h: Harness;
  readonly writer: FsWorkspaceWriter;
  /** The journal store of this test's state directory (the writers' default). */
  readonly store: JournalStore;
  /** A write request for the workspace under the resolved policy. */
  request(edit: WriteRequest['edit'], extra?: Partial<WriteRequest>): WriteRequest;
  /** Renames `a` to `value` in both files (4 edits, 2 files). */
  renameA(): WriteRequest['edit'];
  /** A user's save of `name` (workspace-relative) landing after the pre-flight, just before the writer writes that file. */
  saveBeforeWrite(name: string, text: string): void;
}

/**
 * Registers the per-test setup and teardown in the calling spec.
 * @returns the bed, whose fields are refreshed before each test
 */
export function useWriterBed(): WriterBed {
  let ws: Workspace;
  let h: Harness;
  let writer: FsWorkspaceWriter;
  let policy: SandboxExecutionPolicy;
  let stateDir: string;
  let store: JournalStore;
  const previous = process.env['DSH_LSP_ACTIONS_STATE_DIR'];
  beforeEach(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'lsp-actions-state-'));
    process.env['DSH_LSP_ACTIONS_STATE_DIR'] = stateDir;
    store = new JournalStore(stateDir);
    ws = makeWorkspace({ 'a.ts': 'const a = 1;\r\nexport { a };\r\n', 'b.ts': 'import { a } from "./a";\nconsole.log(a);\n' });
    h = await mountHarness({ mode: 'workspace-write', workspace: ws.root });
    writer = new FsWorkspaceWriter(h.ctx, h.ctx.fs);
    policy = h.ctx.sandboxPolicy.resolve();
  });
  afterEach(async () => {
    await h.dispose();
    ws.remove();
    rmSync(stateDir, { recursive: true, force: true });
    if (previous === undefined) delete process.env['DSH_LSP_ACTIONS_STATE_DIR'];
    else process.env['DSH_LSP_ACTIONS_STATE_DIR'] = previous;
  });
  return {
    get ws() {
      return ws;
    },
    get h() {
      return h;
    },
    get writer() {
      return writer;
    },
    get store() {
      return store;
    },
    request: (edit, extra = {}) => ({ root: ws.root, edit, policy, ...extra }),
    saveBeforeWrite: (name, text) =>
      h.ctx.on(
        'fs/write-intent',
        async (target, _actor, next) => {
          if (target.displayPath === ws.path(name)) ws.write(name, text);
          return next();
        },
        true,
      ),
    renameA: () =>
      workspaceEdit(
        fileEdits(ws.path('a.ts'), replace(0, 6, 0, 7, 'value'), replace(1, 9, 1, 10, 'value')),
        fileEdits(ws.path('b.ts'), replace(0, 9, 0, 10, 'value'), replace(1, 12, 1, 13, 'value')),
      ),
  };
}

/**
 * @param promise a write expected to fail
 * @returns its ActionError
 */
export async function failure(promise: Promise<unknown>): Promise<ActionError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isActionError(error), `expected an ActionError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the write to fail');
}
