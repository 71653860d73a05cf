import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultDecoder, defaultPolicyDecoder } from '../../main/decode/default-mode.ts';
import { SHIPPED_MODEL, TINY_MODEL } from '../../main/decode/models.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

test('the default decoder is the fastest exact mode of the benchmark the model folder ships', () => {
  const d = defaultDecoder(SHIPPED_MODEL);
  assert.equal(d.mode, 'lookup-tree');
  assert.equal(d.k, 4);
  assert.match(d.why, /lookup-tree at k = 4, 1\.\d\dx AR/);
  assert.ok(defaultDecoder(TINY_MODEL).mode);
});

test('without a benchmark: copied drafts; a mode that changed the output or did not beat AR is never chosen', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-default-mode-'));
  assert.equal(defaultDecoder(dir).mode, 'lookup-tree');
  assert.match(defaultDecoder(dir).why, /no bench-decode\.json/);
  const report = JSON.parse(readFileSync(modelFiles(SHIPPED_MODEL).benchDecode, 'utf8'));
  const best = (over: Record<string, unknown>) => ({ k: 2, speedup: 1.2, meanAcceptanceLength: 2, identicalOutputs: true, speedupCi95: { low: 1.1, high: 1.3 }, ...over });
  report.best = { sdsat: best({ speedup: 3, identicalOutputs: false }), lookup: best({ speedup: 1.5, speedupCi95: { low: 0.9, high: 2.1 } }), 'lookup-tree': best({}) };
  writeFileSync(modelFiles(dir).benchDecode, JSON.stringify(report));
  assert.deepEqual([defaultDecoder(dir).mode, defaultDecoder(dir).k], ['lookup-tree', 2], 'sdsat changed the output; lookup\'s interval reaches below 1');
  report.best = { sdsat: best({ speedup: 0.9, speedupCi95: { low: 0.8, high: 0.95 } }) };
  writeFileSync(modelFiles(dir).benchDecode, JSON.stringify(report));
  assert.equal(defaultDecoder(dir).mode, 'ar');
});

test('a policy without a benchmark copies drafts under greedy decoding and uses AR under sampling; one that ships a benchmark follows it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-default-policy-mode-'));
  assert.equal(defaultPolicyDecoder(dir, true).mode, 'lookup-tree');
  assert.equal(defaultPolicyDecoder(dir, false).mode, 'ar');
  const report = JSON.parse(readFileSync(modelFiles(SHIPPED_MODEL).benchDecode, 'utf8'));
  report.best = { 'merged-tree': { k: 3, speedup: 1.4, meanAcceptanceLength: 2, identicalOutputs: true, speedupCi95: { low: 1.2, high: 1.6 } } };
  writeFileSync(modelFiles(dir).benchDecode, JSON.stringify(report));
  assert.deepEqual([defaultPolicyDecoder(dir, true).mode, defaultPolicyDecoder(dir, true).k], ['merged-tree', 3]);
  assert.equal(defaultPolicyDecoder(dir, false).mode, 'ar', 'a greedy benchmark does not decide how sampling decodes');
});
