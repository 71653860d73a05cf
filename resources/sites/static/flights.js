// Flights: the calendar's day buttons pick a date in place instead of reloading the form.
// Without script they submit the form and the server re-renders it with the date chosen.
(() => {
  const input = document.getElementById('date');
  const days = document.querySelectorAll('.calendar button.day');
  if (!input || !days.length) return;
  const mark = (value) => {
    for (const d of days) d.setAttribute('aria-pressed', d.value === value ? 'true' : 'false');
  };
  for (const day of days) {
    day.addEventListener('click', (ev) => {
      ev.preventDefault();
      input.value = day.value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.removeAttribute('aria-invalid');
      mark(day.value);
    });
  }
  input.addEventListener('input', () => mark(input.value.trim()));
})();
