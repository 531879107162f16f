/**
 * The teardown guard: after it is installed, a late EPIPE (unhandled rejection) or an
 * exception thrown by a dying connection does not change the process's exit code.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

const GUARD = pathToFileURL(join(import.meta.dirname, '..', '..', 'src', 'cli', 'cli-io.ts')).href;

function run(level: string, install: boolean): { status: number | null; stderr: string } {
  const script = `
    const { guardTeardown } = await import(${JSON.stringify(GUARD)});
    if (${install}) guardTeardown(process.stderr, ${JSON.stringify(level)});
    Promise.reject(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    const target = new EventTarget();
    target.addEventListener('abort', () => { throw new Error('Connection is closed.'); });
    target.dispatchEvent(new Event('abort'));
    setTimeout(() => process.exit(0), 50);
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('guardTeardown', () => {
  it('without the guard, such errors crash the process', () => {
    assert.notEqual(run('warn', false).status, 0);
  });

  it('with the guard, the process keeps its exit code; notes only at info', () => {
    const quiet = run('warn', true);
    assert.equal(quiet.status, 0, quiet.stderr);
    assert.equal(quiet.stderr, '');
    const verbose = run('info', true);
    assert.equal(verbose.status, 0);
    assert.match(verbose.stderr, /ignored during shutdown \(unhandled rejection\): Error: write EPIPE/);
    assert.match(verbose.stderr, /ignored during shutdown \(uncaught exception\): Error: Connection is closed\./);
  });
});
