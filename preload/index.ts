/**
 * Preload for the app window only (environment views get none): exposes the contract's
 * methods as narrow functions on window.lab. No generic ipcRenderer crosses the bridge.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { CHANNELS, type LabApi } from './api.ts';

const api: LabApi = {
  listEpisodes: () => ipcRenderer.invoke(CHANNELS.listEpisodes),
  readEpisode: (id) => ipcRenderer.invoke(CHANNELS.readEpisode, String(id)),
  listTasks: () => ipcRenderer.invoke(CHANNELS.listTasks),
};

contextBridge.exposeInMainWorld('lab', api);
