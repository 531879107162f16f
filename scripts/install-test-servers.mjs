// Installs the pinned real language servers used by end-to-end tests and benchmarks into
// tests/servers/node_modules (from tests/servers/package-lock.json), unless already there.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'servers');
const lock = readFileSync(join(dir, 'package-lock.json'));
const digest = createHash('sha256').update(lock).digest('hex');
const stamp = join(dir, 'node_modules', '.installed-lock-sha256');
if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
process.stderr.write('installing test language servers (tests/servers)…\n');
execFileSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
writeFileSync(stamp, digest);
