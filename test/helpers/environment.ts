/** Test set-up shared by the environment and collection tests: servers, a Chromium, an environment, a lab. */
import { after, before } from 'node:test';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv, type EnvOptions } from '../../main/environment/environment.ts';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskServer } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabStore } from '../../main/store/lab.ts';
import type { TaskFamily } from '../../main/tasks/types.ts';

export interface EnvironmentFixture {
  host: ChromiumHost;
  server: FixtureServer;
  env: BrowserEnv;
}

/** Registers before/after hooks for the current test file and hands the fixture to `ready`. */
export function useEnvironment(options: Partial<EnvOptions>, ready: (f: EnvironmentFixture) => void, chromiumArgs: string[] = []): void {
  let fixture: EnvironmentFixture | null = null;
  before(async () => {
    const server = await startFixtureServer();
    const host = await ChromiumHost.start({ args: chromiumArgs });
    fixture = { server, host, env: new BrowserEnv(host, options) };
    ready(fixture);
  });
  after(async () => {
    if (!fixture) return;
    await fixture.env.close();
    await fixture.host.close();
    await fixture.server.close();
  });
}

export interface TaskEnvironmentFixture {
  host: ChromiumHost;
  server: TaskServer;
  env: BrowserEnv;
  store: LabStore;
}

/** Before/after hooks for tests that run episodes of the built-in tasks (or the families given) into a fresh lab. */
export function useTaskEnvironment(labPrefix: string, ready: (f: TaskEnvironmentFixture) => void, families: () => Map<string, TaskFamily> = builtinFamilies): void {
  let fixture: TaskEnvironmentFixture | null = null;
  before(async () => {
    const server = await new TaskServer(families()).start();
    const host = await ChromiumHost.start();
    fixture = { server, host, env: new BrowserEnv(host), store: new LabStore(mkdtempSync(join(tmpdir(), labPrefix))) };
    ready(fixture);
  });
  after(async () => {
    if (!fixture) return;
    await fixture.env.close();
    await fixture.host.close();
    await fixture.server.stop();
  });
}
