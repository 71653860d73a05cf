/** Test set-up shared by the environment tests: a fixture server, a Chromium and an environment. */
import { after, before } from 'node:test';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv, type EnvOptions } from '../../main/environment/environment.ts';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';

export interface EnvironmentFixture {
  host: ChromiumHost;
  server: FixtureServer;
  env: BrowserEnv;
}

/** Registers before/after hooks for the current test file and hands the fixture to `ready`. */
export function useEnvironment(options: Partial<EnvOptions>, ready: (f: EnvironmentFixture) => void): void {
  let fixture: EnvironmentFixture | null = null;
  before(async () => {
    const server = await startFixtureServer();
    const host = await ChromiumHost.start();
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
