import { mount } from 'svelte';
import App from './App.svelte';
import { initApi } from './lib/api.ts';

// The API first: in web mode a tab opened from the app may have to ask another tab for the token.
// Mounted in any case: without an API the app says how to open it.
void initApi()
  .catch(() => {})
  .then(() => mount(App, { target: document.getElementById('app')! }));
