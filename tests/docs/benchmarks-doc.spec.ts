/**
 * docs/benchmarks.md stays one page that several generators write: each generator replaces only
 * its own marked block, so the hand-kept summary and readings and any section appended at the
 * end survive a regeneration; every generator writes through that one helper.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BENCH_DOC, BENCH_SECTIONS, type BenchSection, replaceBlock, writeBenchSection } from '../../bench/bench-doc.ts';

const REPO = join(import.meta.dirname, '..', '..');
const NAMES = Object.keys(BENCH_SECTIONS) as BenchSection[];

/** The page with every generated block's content blanked: what no generator may touch. */
function outsideBlocks(doc: string): string {
  return NAMES.reduce((text, name) => text.replace(new RegExp(`<!-- ${name}:start -->[\\s\\S]*?<!-- ${name}:end -->`), `<${name}>`), doc);
}

describe('docs/benchmarks.md', () => {
  it('holds every generator\'s block once, start before end, and a hand-kept summary outside them', () => {
    const doc = readFileSync(BENCH_DOC, 'utf8');
    for (const name of NAMES) {
      const starts = doc.split(`<!-- ${name}:start -->`).length - 1;
      const ends = doc.split(`<!-- ${name}:end -->`).length - 1;
      assert.equal(starts, 1, `${name} start marker`);
      assert.equal(ends, 1, `${name} end marker`);
      assert.ok(doc.indexOf(`<!-- ${name}:start -->`) < doc.indexOf(`<!-- ${name}:end -->`), name);
    }
    assert.match(outsideBlocks(doc), /\n## Summary: the current defaults\n/);
  });

  it('regenerating any block keeps the rest of the page byte for byte, sections appended at the end included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-doc-'));
    try {
      const copy = join(dir, 'benchmarks.md');
      copyFileSync(BENCH_DOC, copy);
      writeFileSync(copy, `${readFileSync(copy, 'utf8')}\n## Someone else's section\n\nAppended by another benchmark.\n`);
      const before = outsideBlocks(readFileSync(copy, 'utf8'));
      for (const name of NAMES) {
        writeBenchSection(name, `## ${name} (regenerated)\n\nnew figures`, copy);
        const after = readFileSync(copy, 'utf8');
        assert.equal(outsideBlocks(after), before, `${name}: nothing outside its block changed`);
        assert.ok(after.includes(`<!-- ${name}:start -->\n## ${name} (regenerated)\n\nnew figures\n<!-- ${name}:end -->`), name);
      }
      assert.match(readFileSync(copy, 'utf8'), /## Someone else's section\n\nAppended by another benchmark\.\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a block not yet on the page is appended; markers out of order are refused, not guessed', () => {
    assert.equal(replaceBlock('# T\n\ntext\n', 'x', 'body'), '# T\n\ntext\n\n<!-- x:start -->\nbody\n<!-- x:end -->\n');
    assert.throws(() => replaceBlock('<!-- x:end -->\n<!-- x:start -->\n', 'x', 'body'), /markers must appear once each/);
    assert.throws(() => replaceBlock('<!-- x:start -->\n<!-- x:end -->\n<!-- x:start -->\n', 'x', 'body'), /markers must appear once each/);
  });

  it('every generator writes its block through writeBenchSection, and none writes the page directly', () => {
    for (const [name, file] of Object.entries(BENCH_SECTIONS)) {
      const source = readFileSync(join(REPO, file), 'utf8');
      assert.ok(source.includes(`writeBenchSection('${name}',`), `${file} writes the ${name} block`);
      assert.ok(!/['"]benchmarks\.md['"]/.test(source), `${file} does not name docs/benchmarks.md as a path of its own`);
    }
  });
});
