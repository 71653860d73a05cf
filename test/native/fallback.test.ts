// Without the addon (LAB_NO_NATIVE=1) the loader reports why, registration declines, and
// nothing throws: TF.js keeps working on its other backends.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const backendModule = fileURLToPath(new URL('../../main/models/native-backend.ts', import.meta.url));
const addonModule = fileURLToPath(new URL('../../main/models/native-addon.ts', import.meta.url));

describe('native fallback', () => {
  it('LAB_NO_NATIVE=1: unavailable with a reason, nothing throws, cpu still computes', () => {
    const script = `
      import * as tf from '@tensorflow/tfjs';
      import { tryRegisterNativeBackend } from ${JSON.stringify(backendModule)};
      import { loadNativeAddon } from ${JSON.stringify(addonModule)};
      const load = loadNativeAddon();
      const reg = tryRegisterNativeBackend();
      await tf.setBackend('cpu');
      const sum = tf.matMul(tf.ones([2, 3]), tf.ones([3, 2])).sum().dataSync()[0];
      console.log(JSON.stringify({ load: { ok: load.ok, reason: load.ok ? '' : load.reason }, reg, again: tryRegisterNativeBackend(), hasNative: tf.findBackend('native') !== null, sum }));
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, LAB_NO_NATIVE: '1' },
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const line = run.stdout.trim().split('\n').find((l) => l.startsWith('{'));
    assert.ok(line, `no JSON in output: ${run.stdout}`);
    const r = JSON.parse(line);
    assert.equal(r.load.ok, false);
    assert.match(r.load.reason, /LAB_NO_NATIVE/);
    assert.deepEqual(r.reg, { ok: false, reason: r.load.reason });
    assert.deepEqual(r.again, r.reg);
    assert.equal(r.hasNative, false);
    assert.equal(r.sum, 12);
  });
});
