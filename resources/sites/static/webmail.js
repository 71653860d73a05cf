// Webmail: Ctrl+Enter sends from the compose form, as in most mail clients.
(() => {
  const form = document.querySelector('form.compose');
  if (!form) return;
  form.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });
})();
