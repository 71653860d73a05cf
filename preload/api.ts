/**
 * The API contract between renderer and main: every method the UI may call, typed on both ends.
 * Electron exposes it through contextBridge (./index.ts); web mode serves the same methods.
 */
import type { EpisodeData, EpisodeSummary } from '../main/store/lab.ts';

export interface LabApi {
  listEpisodes(): Promise<{ episodes: EpisodeSummary[]; errors: string[] }>;
  readEpisode(id: string): Promise<EpisodeData>;
  listTasks(): Promise<Array<{ family: string; description: string }>>;
}

/** IPC channel of each method; nothing else crosses. */
export const CHANNELS: { [K in keyof LabApi]: string } = {
  listEpisodes: 'lab:listEpisodes',
  readEpisode: 'lab:readEpisode',
  listTasks: 'lab:listTasks',
};
