/**
 * Chromium's sandbox stays on wherever it can run, and the episode header says when it is off and
 * why. The decision is a plain function (tested on every case); the launch is tested for real:
 * Chromium's own chrome://sandbox page must agree with what the header records, as the user this
 * test runs as and, when that is root, as an unprivileged user too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decideSandbox, sandboxFacts, sandboxStartFailure, type SandboxFacts } from '../../main/environment/sandbox.ts';
import { findChromium } from '../../main/environment/chromium.ts';
import { LabStore } from '../../main/store/lab.ts';
import { tmpLab, writeEpisode } from '../datasets/helpers.ts';

const linuxUser: SandboxFacts = { platform: 'linux', uid: 1000, optOut: null, userNamespaceBlock: null, setuidHelper: false };

test('the sandbox decision: on unless root, opted out, or neither a user namespace nor a setuid helper', () => {
  assert.deepEqual(decideSandbox(linuxUser), { enabled: true });
  assert.deepEqual(decideSandbox({ ...linuxUser, uid: 0 }), { enabled: false, reason: 'running as root (Chromium does not start its sandbox for root)' });
  assert.deepEqual(decideSandbox({ ...linuxUser, userNamespaceBlock: 'kernel.unprivileged_userns_clone = 0', setuidHelper: true }), { enabled: true });
  assert.deepEqual(decideSandbox({ ...linuxUser, userNamespaceBlock: 'kernel.unprivileged_userns_clone = 0' }), {
    enabled: false,
    reason: 'no usable user namespace (kernel.unprivileged_userns_clone = 0) and no setuid chrome-sandbox helper',
  });
  assert.deepEqual(decideSandbox({ ...linuxUser, optOut: 'switched off by LAB_NO_SANDBOX=1' }), { enabled: false, reason: 'switched off by LAB_NO_SANDBOX=1' });
  assert.deepEqual(decideSandbox({ ...linuxUser, platform: 'darwin', uid: 0 }), { enabled: true }, 'the root rule is Linux Chromium\'s');
  assert.equal(sandboxFacts('/nonexistent/chrome', ['--no-sandbox']).optOut, 'switched off by --no-sandbox in the browser flags');
});

test("Chromium's words for a sandbox that cannot start are picked out of its stderr", () => {
  const stderr = '[1:1:1203/101010.1:ERROR:bus.cc(405)] Failed to connect to the bus\n[2:2:1203/101010.2:FATAL:zygote_host_impl_linux.cc(128)] No usable sandbox! If you are running on Ubuntu 23.10+ ...\n';
  assert.equal(sandboxStartFailure(stderr), 'No usable sandbox! If you are running on Ubuntu 23.10+ ...');
  assert.equal(sandboxStartFailure('[1:1:ERROR:bus.cc] Failed to connect to the bus'), null);
});

test('headers written before the sandbox was recorded still read', () => {
  const lab = tmpLab();
  const id = writeEpisode(lab);
  assert.equal(lab.readEpisode(id).header.env.sandbox, undefined);
});

interface ChildReport {
  sandbox: { enabled: boolean; reason?: string };
  page: string;
  episodeId: string;
}

async function launchAs(uid?: number): Promise<{ report: ChildReport; header: ReturnType<LabStore['readEpisode']>['header'] }> {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-sandbox-'));
  const home = mkdtempSync(join(tmpdir(), 'lab-sandbox-home-'));
  chmodSync(labDir, 0o777);
  chmodSync(home, 0o777);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'helpers', 'sandbox-child.ts'), labDir], {
    ...(uid === undefined ? {} : { uid, gid: uid }),
    env: { ...process.env, HOME: home, LAB_NO_SANDBOX: '' },
    timeout: 120_000,
  });
  const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildReport;
  return { report, header: new LabStore(labDir).readEpisode(report.episodeId).header };
}

test('a launched Chromium runs sandboxed as far as this user allows, and the episode header says so', async () => {
  const expected = decideSandbox(sandboxFacts(findChromium()));
  const { report, header } = await launchAs();
  assert.deepEqual(report.sandbox, expected);
  assert.deepEqual(header.env.sandbox, expected);
  if (expected.enabled) assert.match(report.page, /You are adequately sandboxed/);
  else assert.match(report.page, /You are NOT adequately sandboxed/);
});

/**
 * Why the unprivileged run cannot happen here, if it cannot: not root (the test above ran
 * unprivileged), or a checkout under a folder that user may not enter (a clone in a 0700 mktemp
 * folder), where the child could not even load its modules.
 */
function unprivilegedRunBlocked(uid: number): string | false {
  if (process.getuid?.() !== 0) return 'not root: the test above already ran unprivileged';
  const tsx = join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'package.json');
  const probe = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(tsx)})`], { uid, gid: uid });
  return probe.status === 0 ? false : `uid ${uid} cannot read this checkout (${tsx})`;
}

test('as an unprivileged user (when this test runs as root) the sandbox is on, by Chromium\'s own report', { skip: unprivilegedRunBlocked(65534) }, async () => {
  const { report, header } = await launchAs(65534);
  assert.deepEqual(report.sandbox, { enabled: true });
  assert.deepEqual(header.env.sandbox, { enabled: true });
  assert.match(report.page, /Seccomp-BPF sandbox\tYes/);
  assert.match(report.page, /You are adequately sandboxed/);
});
