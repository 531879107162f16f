/**
 * The old-Node path of the executable: which command lines it answers without the harness (the
 * same ones `parseArgs` reads as help or version), and the message for the rest — the exact line
 * that runs the same command on Node 22.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bundledNode, oldNodeAnswer, oldNodeMessage, shellWord } from '../../src/cli/old-node.ts';
import { parseArgs, type ParsedCommand } from '../../src/cli/parse-args.ts';

/** What `parseArgs` makes of a command line, in `oldNodeAnswer`'s terms. */
function viaParseArgs(argv: string[]): ReturnType<typeof oldNodeAnswer> {
  let parsed: ParsedCommand;
  try {
    parsed = parseArgs(argv);
  } catch {
    return { kind: 'refuse' };
  }
  if (parsed.command === 'help') return parsed.topic === undefined ? { kind: 'help' } : { kind: 'help', topic: parsed.topic };
  if (parsed.command === 'version') return { kind: 'version' };
  return { kind: 'refuse' };
}

describe('oldNodeAnswer', () => {
  it('answers help and version exactly where parseArgs does, and refuses everything else', () => {
    const lines = [
      ['--help'], ['-h'], ['help'], ['help', 'check'], ['help', 'serve'], ['help', 'mcp'], ['help', 'nope'],
      ['--version'], ['-V'], ['version'], ['check', '--help'], ['check', 'src', '-h'], ['serve', '-h'], ['mcp', '--help'], ['mcp'],
      ['serve', '--workspace', '.', '--help'], ['check'], ['check', '.'], ['serve'], [], ['chek'], ['--nope'],
    ];
    for (const argv of lines) assert.deepEqual(oldNodeAnswer(argv), viaParseArgs(argv), argv.join(' '));
  });

  it('does not read a --help after -- as a flag', () => {
    assert.deepEqual(oldNodeAnswer(['check', '--', '--help']), { kind: 'refuse' });
  });
});

describe('oldNodeMessage', () => {
  const facts = { version: '20.20.2', execPath: '/usr/bin/node', script: '/opt/dsh lsp/lib/cli/main.js', argv: ['check', "it's", '-f', 'json'], packageRoot: '/opt/dsh lsp', minimum: '22.19' };

  it('names the bundled Node 22 and gives the one line that runs the same command on it', () => {
    const message = oldNodeMessage({ ...facts, bundled: '/opt/dsh lsp/node_modules/node/bin/node' });
    assert.match(message, /^error: dsh-lsp-actions needs Node 22\.19 or newer; this is Node 20\.20\.2 \(\/usr\/bin\/node\)\n/);
    assert.ok(message.includes(`\n  '/opt/dsh lsp/node_modules/node/bin/node' '/opt/dsh lsp/lib/cli/main.js' check 'it'\\''s' -f json\n`), message);
    assert.ok(message.includes(`npm exec --prefix '/opt/dsh lsp' -- dsh-lsp-actions check 'it'\\''s' -f json`), message);
    assert.match(message, /--help and --version work on any Node\.\n$/);
  });

  it('without a bundled Node, gives the line that runs it on Node 22 from npm', () => {
    const message = oldNodeMessage({ ...facts, bundled: undefined });
    assert.ok(message.includes(`\n  npx -y -p node@22 node '/opt/dsh lsp/lib/cli/main.js' check 'it'\\''s' -f json\n`), message);
  });
});

describe('shellWord and bundledNode', () => {
  it('quotes only what a POSIX shell would split or expand', () => {
    assert.equal(shellWord('src/a.ts'), 'src/a.ts');
    assert.equal(shellWord('--wait-ms=5'), '--wait-ms=5');
    assert.equal(shellWord('a b'), "'a b'");
    assert.equal(shellWord('$HOME'), "'$HOME'");
    assert.equal(shellWord(''), "''");
  });

  it('finds node_modules/node/bin/node, else node_modules/.bin/node, else nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'old-node-'));
    try {
      assert.equal(bundledNode(dir), undefined);
      mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
      writeFileSync(join(dir, 'node_modules', '.bin', 'node'), '');
      assert.equal(bundledNode(dir), join(dir, 'node_modules', '.bin', 'node'));
      mkdirSync(join(dir, 'node_modules', 'node', 'bin'), { recursive: true });
      writeFileSync(join(dir, 'node_modules', 'node', 'bin', 'node'), '');
      assert.equal(bundledNode(dir), join(dir, 'node_modules', 'node', 'bin', 'node'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
