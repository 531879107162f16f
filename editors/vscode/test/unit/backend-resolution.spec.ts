import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveBackend, serveArgs } from '../../src/backend-resolution.ts';

const base = { folder: '/ws', pathEnv: '/usr/local/bin:/opt/dsh/bin' };
const only = (...files: string[]) => (file: string) => files.includes(file);

describe('backend resolution order', () => {
  it('takes dshLspActions.serverPath first, even when the workspace and PATH have one', () => {
    const got = resolveBackend({ ...base, serverPath: '/tools/dsh', isExecutable: only('/tools/dsh', '/ws/node_modules/.bin/dsh-lsp-actions', '/opt/dsh/bin/dsh-lsp-actions') });
    assert.deepEqual(got, { command: '/tools/dsh', source: 'setting' });
  });

  it('resolves a relative serverPath against the folder', () => {
    const got = resolveBackend({ ...base, serverPath: 'bin/dsh', isExecutable: only('/ws/bin/dsh') });
    assert.deepEqual(got, { command: '/ws/bin/dsh', source: 'setting' });
  });

  it('does not fall back when the configured serverPath is missing: the user asked for that one', () => {
    const got = resolveBackend({ ...base, serverPath: '/tools/dsh', isExecutable: only('/opt/dsh/bin/dsh-lsp-actions') });
    assert.ok('missing' in got);
    assert.match(got.missing, /dshLspActions\.serverPath is set to \/tools\/dsh/);
  });

  it("then the workspace's node_modules/.bin, then PATH in order", () => {
    assert.deepEqual(resolveBackend({ ...base, serverPath: ' ', isExecutable: only('/ws/node_modules/.bin/dsh-lsp-actions', '/usr/local/bin/dsh-lsp-actions') }), {
      command: '/ws/node_modules/.bin/dsh-lsp-actions',
      source: 'workspace',
    });
    assert.deepEqual(resolveBackend({ ...base, serverPath: '', isExecutable: only('/usr/local/bin/dsh-lsp-actions', '/opt/dsh/bin/dsh-lsp-actions') }), {
      command: '/usr/local/bin/dsh-lsp-actions',
      source: 'path',
    });
    assert.deepEqual(resolveBackend({ ...base, serverPath: '', isExecutable: only('/opt/dsh/bin/dsh-lsp-actions') }), {
      command: '/opt/dsh/bin/dsh-lsp-actions',
      source: 'path',
    });
  });

  it('says where it looked when nothing is found', () => {
    const got = resolveBackend({ ...base, pathEnv: undefined, serverPath: '', isExecutable: () => false });
    assert.ok('missing' in got);
    assert.match(got.missing, /serverPath.*\/ws\/node_modules\/\.bin\/dsh-lsp-actions.*PATH/);
  });

  it('passes the folder and the sandbox preset to serve', () => {
    assert.deepEqual(serveArgs('/ws', 'read-only'), ['serve', '--workspace', '/ws', '--sandbox', 'read-only']);
  });

  it("skips the folder's own backend when the user did not allow it, naming it when nothing else is found", () => {
    const files = only('/ws/node_modules/.bin/dsh-lsp-actions', '/opt/dsh/bin/dsh-lsp-actions');
    assert.deepEqual(resolveBackend({ ...base, serverPath: '', allowWorkspace: false, isExecutable: files }), { command: '/opt/dsh/bin/dsh-lsp-actions', source: 'path' });
    const none = resolveBackend({ ...base, serverPath: '', allowWorkspace: false, isExecutable: only('/ws/node_modules/.bin/dsh-lsp-actions') });
    assert.ok('missing' in none);
    assert.match(none.missing, /\/ws\/node_modules\/\.bin\/dsh-lsp-actions was not allowed to run/);
  });
});
