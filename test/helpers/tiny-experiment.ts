// A finished `tiny`-preset experiment in a lab, made by the code `lab experiment --preset tiny`
// runs (experimentConfig, ExperimentFolder, runExperiment) with a real Chromium and task server,
// for tests that need real report files without spawning the CLI. About 15 s on two cores.
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { experimentConfig } from '../../main/experiment/config.ts';
import { ExperimentFolder } from '../../main/experiment/folder.ts';
import { runExperiment } from '../../main/experiment/pipeline.ts';
import { LabStore } from '../../main/store/lab.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { TaskServer } from '../../main/tasks/server.ts';

export async function tinyExperiment(labDir: string, id: string): Promise<ExperimentFolder> {
  const store = new LabStore(labDir);
  const folder = ExperimentFolder.create(labDir, experimentConfig('tiny', id));
  const server = await new TaskServer(builtinFamilies()).start();
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host);
  try {
    const result = await runExperiment({ folder, store, server, envs: [env], browserKind: host.kind }, { signal: new AbortController().signal });
    if (result.stopped) throw new Error(`tiny experiment ${id} stopped in ${result.stage}`);
    return folder;
  } finally {
    await env.close();
    await host.close();
    await server.stop();
  }
}
