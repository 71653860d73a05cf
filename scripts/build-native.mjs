// Builds the optional native addon (native/ -> native/build/Release/lab_native.node).
// Runs as postinstall, so it must never fail the install: on any problem it prints one
// line saying the addon is unavailable and why, and exits 0 (TF.js then uses wasm).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const nativeDir = join(root, 'native');
const built = join(nativeDir, 'build', 'Release', 'lab_native.node');

function unavailable(reason) {
  console.log(`native addon unavailable: ${reason} (TF.js falls back to wasm)`);
  process.exit(0);
}

// npm passes its bundled node-gyp to lifecycle scripts; otherwise look beside node.
function findNodeGyp() {
  const prefix = resolve(dirname(process.execPath), '..');
  const candidates = [
    process.env.npm_config_node_gyp,
    join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(prefix, 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((p) => p && existsSync(p));
}

function main() {
  if (process.env.LAB_SKIP_NATIVE_BUILD === '1') unavailable('build skipped by LAB_SKIP_NATIVE_BUILD=1');
  if (!existsSync(join(nativeDir, 'binding.gyp'))) unavailable('native/binding.gyp missing');
  const gyp = findNodeGyp();
  if (!gyp) unavailable('node-gyp not found (it ships with npm)');
  const args = [gyp, 'rebuild'];
  // Headers installed beside node (distro packages, official tarballs) avoid node-gyp's
  // download, which fails offline.
  const localHeaders = resolve(dirname(process.execPath), '..', 'include', 'node', 'node_api.h');
  if (!process.env.npm_config_nodedir && existsSync(localHeaders)) {
    args.push(`--nodedir=${resolve(dirname(process.execPath), '..')}`);
  }
  const run = spawnSync(process.execPath, args, { cwd: nativeDir, encoding: 'utf8', timeout: 300_000 });
  if (run.error) unavailable(`node-gyp could not run: ${run.error.message}`);
  if (run.status !== 0) {
    const lines = `${run.stdout}\n${run.stderr}`.split('\n').map((l) => l.trim());
    const firstError = lines.find((l) => /error/i.test(l) && !/^gyp ERR! (stack|System|command|cwd|node -v|node-gyp -v|not ok)/.test(l));
    unavailable(`node-gyp rebuild failed: ${firstError ?? `exit code ${run.status}`}`);
  }
  if (!existsSync(built)) unavailable(`build finished but ${built} is missing`);
  // Load it once in a child so a broken binary is reported here, not at training time.
  const probe = spawnSync(process.execPath, ['-e', `console.log(JSON.stringify(require(${JSON.stringify(built)}).info()))`], { encoding: 'utf8' });
  if (probe.status !== 0) unavailable(`built addon does not load: ${(probe.stderr || '').trim().split('\n')[0]}`);
  console.log(`native addon built: ${built} ${probe.stdout.trim()}`);
}

main();
