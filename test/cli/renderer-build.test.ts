// `lab web` reuses the renderer build while its inputs are unchanged (main/renderer-build.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureRendererBuilt, isBuildCurrent, rendererInputsHash } from '../../main/renderer-build.ts';

test('the renderer is built once, rebuilt when an input changes, and a failed build is never reused', async () => {
  const root = mkdtempSync(join(tmpdir(), 'lab-renderer-build-'));
  mkdirSync(join(root, 'src', 'views'), { recursive: true });
  writeFileSync(join(root, 'src', 'views', 'A.svelte'), '<p>a</p>');
  writeFileSync(join(root, 'config.ts'), 'export {}');
  const inputs = ['src', 'config.ts'];
  const out = join(root, 'out');
  let builds = 0;
  const build = async (dir: string) => {
    builds++;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), `<html>${builds}</html>`);
  };

  const h1 = rendererInputsHash(root, inputs);
  assert.deepEqual(await ensureRendererBuilt(out, build, h1), { built: true, hash: h1 });
  assert.deepEqual(await ensureRendererBuilt(out, build, rendererInputsHash(root, inputs)), { built: false, hash: h1 });
  assert.equal(builds, 1);

  // A changed source, and a new file, each change the hash and cause one build.
  writeFileSync(join(root, 'src', 'views', 'A.svelte'), '<p>b</p>');
  const h2 = rendererInputsHash(root, inputs);
  assert.notEqual(h2, h1);
  assert.equal((await ensureRendererBuilt(out, build, h2)).built, true);
  writeFileSync(join(root, 'src', 'views', 'B.svelte'), '');
  const h3 = rendererInputsHash(root, inputs);
  assert.notEqual(h3, h2);

  // A build that throws leaves the old stamp, so the next start builds again.
  await assert.rejects(ensureRendererBuilt(out, async () => { throw new Error('vite failed'); }, h3), /vite failed/);
  assert.equal(isBuildCurrent(out, h3), false);
  assert.equal((await ensureRendererBuilt(out, build, h3)).built, true);
  assert.equal(builds, 3);
});
