/**
 * Preload for the app window only (environment views get none): exposes the contract's
 * methods and event subscriptions as narrow functions on window.lab. No generic ipcRenderer
 * crosses the bridge; channel names are fixed here.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { EVENTS, METHODS, channelOf, type LabEventName, type LabEvents } from './api.ts';

const api: Record<string, unknown> = {};
for (const method of METHODS) api[method] = (...args: unknown[]) => ipcRenderer.invoke(channelOf(method), ...args);

api.on = <E extends LabEventName>(event: E, listener: (data: LabEvents[E]) => void): (() => void) => {
  if (!EVENTS.includes(event)) throw new Error(`unknown event ${String(event)}`);
  const handler = (_e: unknown, data: LabEvents[E]) => listener(data);
  ipcRenderer.on(channelOf(event), handler);
  return () => ipcRenderer.off(channelOf(event), handler);
};

contextBridge.exposeInMainWorld('lab', api);
