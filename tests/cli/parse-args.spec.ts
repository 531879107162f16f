/**
 * Argument parsing: commands, defaults, every flag, and the usage errors (exit code 2) with
 * messages naming the flag.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { helpText } from '../../src/cli/help-text.ts';
import { closestFlag, editDistance, parseArgs, UsageError } from '../../src/cli/parse-args.ts';

function usageError(argv: string[], pattern: RegExp, env: Record<string, string> = {}): void {
  assert.throws(
    () => parseArgs(argv, env),
    (error: unknown) => error instanceof UsageError && pattern.test(error.message),
  );
}

describe('parseArgs', () => {
  it('help and version', () => {
    assert.deepEqual(parseArgs(['--help']), { command: 'help' });
    assert.deepEqual(parseArgs(['-h']), { command: 'help' });
    assert.deepEqual(parseArgs(['help', 'check']), { command: 'help', topic: 'check' });
    assert.deepEqual(parseArgs(['check', '--help']), { command: 'help', topic: 'check' });
    assert.deepEqual(parseArgs(['serve', '-h']), { command: 'help', topic: 'serve' });
    assert.deepEqual(parseArgs(['--version']), { command: 'version' });
    assert.deepEqual(parseArgs(['-V']), { command: 'version' });
  });

  it('check defaults', () => {
    assert.deepEqual(parseArgs(['check']), {
      command: 'check',
      logLevel: 'warn',
      paths: ['.'],
      format: 'text',
      severity: 'warning',
      jobs: 4,
      progress: true,
      includeUnconfigured: false,
      allPrograms: false,
      typescript: 'auto',
      watch: false,
    });
  });

  it('check with every option', () => {
    const cmd = parseArgs([
      'check', 'a.ts', 'src', '--workspace', '/ws', '--format', 'sarif', '--wait-ms', '5000',
      '--severity', 'hint', '-j', '2', '--no-progress', '--servers', 's.yml', '--log-level', 'debug',
      '--include-unconfigured', '--all-programs', '--typescript', 'embedded', '--pretty', '--sarif-category', 'frontend',
    ]);
    assert.deepEqual(cmd, {
      command: 'check',
      workspace: '/ws',
      servers: 's.yml',
      logLevel: 'debug',
      paths: ['a.ts', 'src'],
      format: 'sarif',
      waitMs: 5000,
      severity: 'hint',
      jobs: 2,
      progress: false,
      includeUnconfigured: true,
      allPrograms: true,
      typescript: 'embedded',
      pretty: true,
      sarifCategory: 'frontend',
      watch: false,
    });
    assert.equal((parseArgs(['check', '-f', 'json', '--config', 'c.yml']) as { format: string }).format, 'json');
    assert.equal((parseArgs(['check', '--format=json']) as { format: string }).format, 'json');
  });

  it('check: --pretty/--no-pretty, --watch, --sarif-category, and their contradictions', () => {
    assert.equal((parseArgs(['check', '--no-pretty']) as { pretty?: boolean }).pretty, false);
    assert.equal('pretty' in (parseArgs(['check']) as object), false);
    assert.equal((parseArgs(['check', '--watch']) as { watch: boolean }).watch, true);
    assert.throws(() => parseArgs(['check', '--pretty', '--no-pretty']), /contradict/);
    assert.throws(() => parseArgs(['check', '--sarif-category', 'x']), /--format sarif only/);
    assert.throws(() => parseArgs(['check', '--sarif-category', '', '-f', 'sarif']), /needs a value/);
    assert.throws(() => parseArgs(['check', '--watch', '-f', 'json']), /--watch prints text/);
  });

  it('serve: sandbox from the flag, then DSH_PERMISSION_MODE, then workspace-write', () => {
    assert.equal((parseArgs(['serve']) as { sandbox: string }).sandbox, 'workspace-write');
    assert.equal((parseArgs(['serve'], { DSH_PERMISSION_MODE: 'read-only' }) as { sandbox: string }).sandbox, 'read-only');
    assert.equal(
      (parseArgs(['serve', '--sandbox', 'danger-full-access'], { DSH_PERMISSION_MODE: 'read-only' }) as { sandbox: string }).sandbox,
      'danger-full-access',
    );
    assert.deepEqual(parseArgs(['serve', '-w', 'ws', '--print-config']), {
      command: 'serve',
      workspace: 'ws',
      workspaces: ['ws'],
      logLevel: 'warn',
      sandbox: 'workspace-write',
      printConfig: true,
    });
  });

  it('serve: --workspace repeats (the folders of an editor window), in order; the first is `workspace`', () => {
    const cmd = parseArgs(['serve', '--workspace', 'a', '-w', 'b', '--workspace=c']) as { workspace?: string; workspaces?: string[] };
    assert.equal(cmd.workspace, 'a');
    assert.deepEqual(cmd.workspaces, ['a', 'b', 'c']);
    assert.equal((parseArgs(['serve']) as { workspaces?: string[] }).workspaces, undefined);
    assert.throws(() => parseArgs(['serve', '--workspace', 'a', '--workspace', ' ']), /--workspace needs a value/);
  });

  it('a mistyped flag or command gets a "did you mean"; an unrelated one does not', () => {
    usageError(['check', '--fromat', 'json'], /^Unknown option '--fromat'; did you mean '--format'\?$/);
    usageError(['check', '--no-progres'], /did you mean '--no-progress'\?/);
    usageError(['check', '--include-unconfig'], /did you mean '--include-unconfigured'\?/);
    usageError(['check', '--wait', '5'], /did you mean '--wait-ms'\?/);
    usageError(['serve', '--sandbx', 'read-only'], /did you mean '--sandbox'\?/);
    usageError(['chek'], /^unknown command 'chek'; did you mean 'check'\?$/);
    usageError(['check', '--xyzzy'], /^Unknown option '--xyzzy'$/);
    assert.equal(closestFlag('typscript', ['typescript', 'format']), 'typescript');
    assert.equal(closestFlag('zzz', ['typescript', 'format']), undefined);
  });

  it('two adjacent letters swapped count as one typo: mpc → mcp, --sandobx → --sandbox', () => {
    usageError(['mpc'], /^unknown command 'mpc'; did you mean 'mcp'\?$/);
    usageError(['serve', '--sandobx', 'read-only'], /did you mean '--sandbox'\?/);
    assert.equal(editDistance('mpc', 'mcp'), 1);
    assert.equal(editDistance('ab', 'ba'), 1);
    assert.equal(editDistance('abc', 'ca'), 3, 'optimal string alignment: a swapped pair is not edited again');
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(closestFlag('cehck', ['serve', 'check', 'mcp']), 'check');
  });

  it('usage errors name what is wrong', () => {
    usageError([], /no command/);
    usageError(['lint'], /unknown command 'lint'/);
    usageError(['--workspace', 'x'], /unknown option '--workspace'/);
    usageError(['check', '--bogus'], /^Unknown option '--bogus'$/);
    usageError(['check', '--format', 'xml'], /--format must be one of text, json, sarif \(got 'xml'\)/);
    usageError(['check', '--format'], /--format/);
    usageError(['check', '--wait-ms', '0'], /--wait-ms must be a whole number/);
    usageError(['check', '--wait-ms', '1.5'], /--wait-ms/);
    usageError(['check', '--jobs', '65'], /--jobs must be a whole number from 1 to 64/);
    usageError(['check', '--severity', 'fatal'], /--severity/);
    usageError(['check', '--workspace', ''], /--workspace needs a value/);
    usageError(['check', '--config', 'c.yml', '--servers', 's.yml'], /--servers configures the default composition/);
    usageError(['serve', 'extra'], /serve takes no paths/);
    usageError(['serve', '--sandbox', 'yolo'], /--sandbox must be one of/);
    usageError(['serve'], /DSH_PERMISSION_MODE must be one of/, { DSH_PERMISSION_MODE: 'yolo' });
    usageError(['serve', '--config', 'c.yml', '--sandbox', 'read-only'], /a --config composition sets them itself/);
    usageError(['serve', '--log-level', 'loud'], /--log-level/);
    usageError(['help', 'lint'], /no help for 'lint'/);
  });

  it('usage errors carry the command whose help applies', () => {
    try {
      parseArgs(['check', '--nope']);
      assert.fail('expected a UsageError');
    } catch (error) {
      assert.ok(error instanceof UsageError);
      assert.equal(error.topic, 'check');
    }
  });

  it('every flag is documented in the help', () => {
    const check = helpText('check');
    for (const flag of ['--format', '--wait-ms', '--severity', '--jobs', '--no-progress', '--workspace', '--config', '--servers', '--log-level', '--include-unconfigured', '--all-programs', '--typescript', '130', '143']) {
      assert.ok(check.includes(flag), `check help mentions ${flag}`);
    }
    const serve = helpText('serve');
    for (const flag of ['--sandbox', '--print-config', '--workspace', '--config', '--servers', 'DSH_PERMISSION_MODE']) {
      assert.ok(serve.includes(flag), `serve help mentions ${flag}`);
    }
    const mcp = helpText('mcp');
    for (const flag of ['--sandbox', '--workspace', '--config', '--servers', '--log-level', 'DSH_PERMISSION_MODE', 'read-only (default)']) {
      assert.ok(mcp.includes(flag), `mcp help mentions ${flag}`);
    }
    assert.match(helpText(), /check \[PATH…\]/);
    assert.match(helpText(), /^ {2}mcp /m);
  });

  it('mcp: folders, sandbox (read-only unless the user says otherwise), servers, and its usage errors', () => {
    assert.deepEqual(parseArgs(['mcp']), { command: 'mcp', logLevel: 'warn', sandbox: 'read-only' });
    assert.deepEqual(parseArgs(['mcp', '-w', 'a', '--workspace', 'b', '--sandbox', 'workspace-write', '--servers', 's.json']), {
      command: 'mcp',
      workspace: 'a',
      workspaces: ['a', 'b'],
      servers: 's.json',
      logLevel: 'warn',
      sandbox: 'workspace-write',
    });
    assert.equal((parseArgs(['mcp'], { DSH_PERMISSION_MODE: 'danger-full-access' }) as { sandbox: string }).sandbox, 'danger-full-access');
    assert.deepEqual(parseArgs(['mcp', '-c', 'cordis.yml']), { command: 'mcp', config: 'cordis.yml', logLevel: 'warn', sandbox: 'read-only' });
    assert.deepEqual(parseArgs(['help', 'mcp']), { command: 'help', topic: 'mcp' });
    assert.deepEqual(parseArgs(['mcp', '--help']), { command: 'help', topic: 'mcp' });
    usageError(['mcp', '--sandbox', 'write'], /--sandbox must be one of read-only, workspace-write, danger-full-access/);
    usageError(['mcp', '-c', 'x.yml', '--sandbox', 'read-only'], /--config composition sets them itself/);
    usageError(['mcp', 'src'], /mcp takes no paths/);
    usageError(['mcp', '--print-config'], /Unknown option '--print-config'/);
    usageError(['mcq'], /did you mean 'mcp'/);
    assert.throws(() => parseArgs(['mcp', '--sandbox', 'x']), (error: unknown) => error instanceof UsageError && error.topic === 'mcp');
  });
});
