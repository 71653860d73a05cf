import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { startDebugChromium } from '../helpers/debug-chromium.ts';

test('bench env --pool-sizes: steps/s per browser count with an interval over the repeats, and what each launched browser costs', async () => {
  const out = JSON.parse((await lab('bench', 'env', '--pool-sizes', '1,2', '--episodes', '1', '--repeats', '2', '--json')).stdout);
  assert.deepEqual(out.results.map((r: { browsers: number }) => r.browsers), [1, 2]);
  for (const r of out.results) {
    assert.equal(r.environments, r.browsers);
    assert.equal(r.windows.length, 2);
    for (const w of r.windows) {
      assert.ok(w.steps > 0 && w.stepsPerSec > 0 && w.browserCpuMsPerStep > 0, JSON.stringify(w));
      assert.equal(w.browserPssMb.length, r.browsers);
      // Shared pages count once in the proportional set size, in every process in the RSS sum.
      w.browserPssMb.forEach((pss: number, i: number) => assert.ok(pss > 0 && pss <= w.browserRssSumMb[i], JSON.stringify(w)));
    }
    const rates = r.windows.map((w: { stepsPerSec: number }) => w.stepsPerSec);
    assert.ok(r.stepsPerSec.ci95.low <= Math.min(...rates) && r.stepsPerSec.ci95.high >= Math.max(...rates));
  }
  assert.ok(out.perBrowser.pssMb.value > 0 && out.perBrowser.cpuMsPerStep.value > 0);
  assert.equal(out.scaling[0].speedup, 1);
  assert.equal(out.machine.loadAvgAtStart.length, 3, 'the load of a shared machine is recorded with the figures');
  await assert.rejects(lab('bench', 'env', '--pool-sizes', '1,x'), /--pool-sizes must be a comma-separated list of browser counts/);
  const one = await startDebugChromium();
  try {
    await assert.rejects(lab('bench', 'env', '--pool-sizes', '1,2', '--browser', one.wsUrl), /--pool-sizes asks for 2 browsers but 1 are there/);
  } finally {
    await one.stop();
  }
});
