// Every micro-kernel this CPU can run is checked, not just the best one: LAB_NATIVE_ISA
// lowers the dispatcher's choice in a child process and the result is compared with a
// plain JS reference.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { needsNative } from './compare.ts';

const addonModule = fileURLToPath(new URL('../../main/models/native-addon.ts', import.meta.url));

const script = `
  import { loadNativeAddon } from ${JSON.stringify(addonModule)};
  const load = loadNativeAddon();
  if (!load.ok) throw new Error(load.reason);
  const { addon } = load;
  let s = 12345;
  const rnd = (n) => Float32Array.from({ length: n }, () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5);
  let maxErr = 0;
  for (const [batch, M, N, K] of [[1, 1, 1, 1], [1, 3, 5, 7], [2, 67, 129, 33], [1, 13, 40, 300], [3, 25, 70, 9]]) {
    for (const tA of [false, true]) for (const tB of [false, true]) {
      const a = rnd(batch * M * K), b = rnd(batch * K * N), c = new Float32Array(batch * M * N);
      addon.matmul(a, b, c, batch, batch, batch, M, N, K, tA, tB);
      for (let q = 0; q < batch; q++) for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
        let ref = 0;
        for (let k = 0; k < K; k++) ref += (tA ? a[q*M*K + k*M + i] : a[q*M*K + i*K + k]) * (tB ? b[q*K*N + j*K + k] : b[q*K*N + k*N + j]);
        maxErr = Math.max(maxErr, Math.abs(ref - c[q*M*N + i*N + j]));
      }
    }
  }
  console.log(JSON.stringify({ ...addon.info(), maxErr }));
`;

function runWith(isa: string): { isa: string; detectedIsa: string; maxErr: number } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, LAB_NATIVE_ISA: isa },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop() ?? '{}');
}

describe('native micro-kernels per CPU feature path', needsNative, () => {
  const order = ['generic', 'avx2', 'avx512'];
  for (const isa of order) {
    it(`LAB_NATIVE_ISA=${isa} matches the JS reference`, (t) => {
      const r = runWith(isa);
      assert.ok(r.maxErr < 1e-4, `max error ${r.maxErr} with ${r.isa}`);
      t.diagnostic(`ran ${r.isa} (cpu supports ${r.detectedIsa})`);
    });
  }
});
