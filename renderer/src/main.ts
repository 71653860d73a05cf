import { mount } from 'svelte';
import App from './App.svelte';
import { initApi } from './lib/api.ts';

// The API first: in web mode the tab must have a session before any view asks for data.
// Mounted in any case: without an API the app says how to open it.
void initApi()
  .catch(() => {})
  .then(() => mount(App, { target: document.getElementById('app')! }));
