/** What the service hands each of its parts (decoding, training, replays, demonstrations, forks, datasets, experiments). */
import type { LabEvents } from '../../preload/api.ts';
import type { BrowserHost } from '../environment/cdp.ts';
import type { TaskServer } from '../tasks/server.ts';

/** Send one of the app's events to every window and web client. */
export type Emit = <E extends keyof LabEvents>(event: E, data: LabEvents[E]) => void;

/** The service's browser and task server, started on first use. */
export type Runtime = () => Promise<{ host: BrowserHost; server: TaskServer }>;
