import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explainStartFailure, firstErrorLine } from '../../src/start-failure.ts';

describe('a failed backend start, explained', () => {
  it('takes the backend’s own first error line, else its first line', () => {
    assert.equal(firstErrorLine(['', 'dsh-lsp-actions serve: starting', 'error: dsh-lsp-actions needs Node 22.19 or newer; this is Node 20.20.2', 'later']), 'error: dsh-lsp-actions needs Node 22.19 or newer; this is Node 20.20.2');
    assert.equal(firstErrorLine(['  ', 'just talking']), 'just talking');
    assert.equal(firstErrorLine([]), undefined);
  });

  it('advises by what the line says: wrong Node, not the backend, something missing, else the output', () => {
    const node = explainStartFailure('error: dsh-lsp-actions needs Node 22.19 or newer; this is Node 20.20.2 (/usr/bin/node)', false);
    assert.match(node.advice, /Node 22\.19 or newer/);
    assert.equal(node.action, 'openSettings');
    const other = explainStartFailure('/bin/cat did not answer the lsp-actions/v1 handshake within 60 s', true);
    assert.match(other.advice, /not the dsh-lsp-actions backend/);
    const missing = explainStartFailure("Error: Cannot find module '/x/lib/cli/main.js'", false);
    assert.match(missing.advice, /missing/);
    assert.equal(missing.action, 'openSettings');
    const unknown = explainStartFailure('segfault', false);
    assert.equal(unknown.action, 'showOutput');
    assert.equal(unknown.reason, 'segfault');
  });
});
