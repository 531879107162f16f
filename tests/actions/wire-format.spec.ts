import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toWireDiagnostic } from '../../src/actions/wire-format.ts';

const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } };

describe('toWireDiagnostic', () => {
  it('forwards related information with absolute paths (additive field)', () => {
    const item = toWireDiagnostic({
      serverId: 'typescript',
      range,
      severity: 'error',
      message: 'Duplicate identifier',
      relatedInformation: [{ location: { path: '/ws/src/a.ts', range }, message: 'first declared here' }],
    });
    assert.deepEqual(item.relatedInformation, [{ filePath: '/ws/src/a.ts', range, message: 'first declared here' }]);
  });

  it('leaves the field out when the server sent none', () => {
    const item = toWireDiagnostic({ serverId: 'typescript', range, severity: 'warning', message: 'm' });
    assert.equal('relatedInformation' in item, false);
    assert.equal(item.severity, 2);
  });
});
