/**
 * Child process for the sandbox test: launches Chromium the way the workbench does, records one
 * counter episode into the lab folder given, and prints the host's sandbox state and what
 * chrome://sandbox itself reports, as one JSON line.
 */
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { counterFamily } from './counter-family.ts';

const labDir = process.argv[2];
const host = await ChromiumHost.start();
try {
  // Chromium's own report of the renderer's sandbox (namespace or setuid sandbox, seccomp-bpf).
  const page = await host.newPage({ width: 800, height: 600 });
  await page.session.send('Page.enable');
  const loaded = new Promise((r) => page.session.onEvent((method) => method === 'Page.loadEventFired' && r(null)));
  await page.session.send('Page.navigate', { url: 'chrome://sandbox' });
  await Promise.race([loaded, new Promise((r) => setTimeout(r, 5000))]);
  await new Promise((r) => setTimeout(r, 300)); // the page fills its table from script after load
  const { result } = await page.session.send('Runtime.evaluate', { expression: 'document.body.innerText' });
  await page.dispose();

  const server = await new TaskServer(new Map([['counter', counterFamily]])).start();
  const env = new BrowserEnv(host);
  const store = new LabStore(labDir);
  const outcome = await runEpisode(
    { env, server, store, browserKind: host.kind },
    { family: 'counter', seed: 1, agent: { name: 'quiet', reset() {}, act: async () => ({ action: "send_msg_to_user('0')" }) } },
  );
  await env.close();
  await server.stop();
  process.stdout.write(JSON.stringify({ sandbox: host.sandbox, page: result.value, episodeId: outcome.id }) + '\n');
} finally {
  await host.close();
}
