/**
 * `check`'s schedule server by server (decision 0105): groups by the servers that answer, at most
 * `concurrency` groups at once, a group's servers stopped once no unfinished group needs them,
 * files found through a group checked on its live servers, `--watch` (no `stop`) stopping nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runProgramSchedule, type ProgramScheduleOptions, type ServerKey } from '../../src/cli/program-schedule.ts';

/** Files `pN/…` go to server `ts` at root `pN`; `shared/…` to both `ts@shared` and `lint@/`. */
function serversOf(file: string): Promise<ServerKey[]> {
  const dir = file.split('/')[0] ?? '';
  if (dir === 'shared') return Promise.resolve([{ serverId: 'ts', root: 'shared' }, { serverId: 'lint', root: '/' }]);
  if (dir.startsWith('lint')) return Promise.resolve([{ serverId: 'lint', root: '/' }]);
  return Promise.resolve([{ serverId: 'ts', root: dir }]);
}

/** A fake engine: which servers are live, what was asked of which, the peak of live servers. */
class Recorder {
  live = new Set<string>();
  peak = 0;
  log: string[] = [];
  starts = new Map<string, number>();

  use(servers: ServerKey[], what: string): void {
    for (const server of servers) {
      const key = `${server.serverId}@${server.root}`;
      if (!this.live.has(key)) this.starts.set(key, (this.starts.get(key) ?? 0) + 1);
      this.live.add(key);
    }
    this.peak = Math.max(this.peak, this.live.size);
    this.log.push(what);
  }

  options(files: string[], extra: Partial<ProgramScheduleOptions<string>> = {}): ProgramScheduleOptions<string> {
    return {
      files,
      serversOf,
      check: async (batch) => {
        for (const file of batch) this.use(await serversOf(file), `check ${file}`);
        await new Promise((r) => setTimeout(r, 5));
        return batch;
      },
      stop: async (server) => {
        const key = `${server.serverId}@${server.root}`;
        this.live.delete(key);
        this.log.push(`stop ${key}`);
        await new Promise((r) => setTimeout(r, 5));
      },
      concurrency: 1,
      ...extra,
    };
  }
}

describe('program schedule', () => {
  it('one group at a time: each server stopped after its files, before the next group starts', async () => {
    const r = new Recorder();
    const done = await runProgramSchedule(r.options(['p1/a.ts', 'p2/a.ts', 'p1/b.ts', 'p3/a.ts']));
    assert.deepEqual(done.sort(), ['p1/a.ts', 'p1/b.ts', 'p2/a.ts', 'p3/a.ts']);
    assert.deepEqual(r.log, ['check p1/a.ts', 'check p1/b.ts', 'stop ts@p1', 'check p2/a.ts', 'stop ts@p2', 'check p3/a.ts', 'stop ts@p3']);
    assert.equal(r.peak, 1);
    assert.equal(r.live.size, 0);
  });

  it('at most `concurrency` groups at once; a server two groups need is stopped after the last', async () => {
    const r = new Recorder();
    await runProgramSchedule(r.options(['lint/x.md', 'p1/a.ts', 'shared/s.ts', 'p2/a.ts', 'p3/a.ts', 'lint/y.md'], { concurrency: 2 }));
    assert.ok(r.peak <= 3, `two groups' servers at most (shared has two), saw ${r.peak}`);
    const lintStop = r.log.indexOf('stop lint@/');
    assert.ok(lintStop > r.log.indexOf('check lint/y.md') && lintStop > r.log.indexOf('check shared/s.ts'), r.log.join('\n'));
    assert.equal(r.log.filter((l) => l === 'stop lint@/').length, 1);
    assert.equal(r.starts.get('lint@/'), 1, 'never restarted');
    assert.equal(r.live.size, 0);
  });

  it("files found through a group: on its own live server before the stop, joining a pending group, or a group of their own after a stopped one's end", async () => {
    const r = new Recorder();
    const follow = async (files: readonly string[]): Promise<string[]> => {
      r.log.push(`follow ${files.join(',')}`);
      if (files.includes('p1/a.ts')) return ['p1/outside.ts', 'p3/imported.ts'];
      if (files.includes('p2/a.ts')) return ['p1/late.ts', 'p1/outside.ts'];
      return [];
    };
    const done = await runProgramSchedule(r.options(['p1/a.ts', 'p2/a.ts', 'p3/a.ts'], { follow }));
    assert.deepEqual(done.sort(), ['p1/a.ts', 'p1/late.ts', 'p1/outside.ts', 'p2/a.ts', 'p3/a.ts', 'p3/imported.ts'], 'each file once');
    const at = (line: string): number => r.log.indexOf(line);
    assert.ok(at('check p1/outside.ts') < at('stop ts@p1'), 'checked on the live server of its group');
    assert.ok(at('check p3/a.ts') < at('check p3/imported.ts') && at('check p3/imported.ts') < at('stop ts@p3'), 'joined the pending group, after its own files');
    assert.ok(at('check p1/late.ts') > at('stop ts@p3'), 'a stopped server: checked at the end');
    assert.equal(r.starts.get('ts@p1'), 2, 'a new process for it');
    assert.equal(r.live.size, 0);
  });

  it('without stop (--watch) nothing is stopped; an engine that cannot route gives one group', async () => {
    const r = new Recorder();
    const { stop: _stop, ...noStop } = r.options(['p1/a.ts', 'p2/a.ts'], { concurrency: 2 });
    await runProgramSchedule(noStop);
    assert.equal(r.live.size, 2);
    assert.ok(!r.log.some((l) => l.startsWith('stop')));

    const u = new Recorder();
    const batches: string[][] = [];
    await runProgramSchedule({
      ...u.options(['p1/a.ts', 'p2/a.ts', 'p1/b.ts']),
      serversOf: () => Promise.resolve(undefined),
      check: (files) => {
        batches.push(files);
        return Promise.resolve(files);
      },
    });
    assert.deepEqual(batches, [['p1/a.ts', 'p2/a.ts', 'p1/b.ts']], 'one group, in the given order');
    assert.ok(!u.log.some((l) => l.startsWith('stop')));
  });

  it('a prestarted server: its group first; stopped at once when no group needs it', async () => {
    const r = new Recorder();
    r.live.add('ts@p2');
    await runProgramSchedule(r.options(['p1/a.ts', 'p2/a.ts'], { live: [{ serverId: 'ts', root: 'p2' }] }));
    assert.deepEqual(r.log.slice(0, 2), ['check p2/a.ts', 'stop ts@p2']);

    const s = new Recorder();
    s.live.add('ts@root');
    await runProgramSchedule(s.options(['p1/a.ts'], { live: [{ serverId: 'ts', root: 'root' }] }));
    assert.ok(s.log.includes('stop ts@root'));
    assert.equal(s.live.size, 0);
  });

  it('an interrupt starts no further group; the results so far are returned', async () => {
    const r = new Recorder();
    const controller = new AbortController();
    const options = r.options(['p1/a.ts', 'p2/a.ts', 'p3/a.ts'], { signal: controller.signal });
    const check = options.check;
    const done = await runProgramSchedule({
      ...options,
      check: async (files) => {
        const out = await check(files);
        controller.abort();
        return out;
      },
    });
    assert.deepEqual(done, ['p1/a.ts']);
    assert.ok(!r.log.includes('check p2/a.ts'));
    assert.deepEqual([...r.live], [], 'the group that ran is still stopped');
  });
});
