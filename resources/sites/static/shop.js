// Shop: the product swatch follows the chosen colour, as on real store pages.
(() => {
  const colors = { Red: '#c0392b', Blue: '#2e6bd6', Black: '#222', White: '#eee', Green: '#2e8b57', Grey: '#888', Orange: '#e67e22', Yellow: '#f1c40f', Navy: '#1f2d5a' };
  const select = document.getElementById('p-color');
  const swatch = document.querySelector('.swatch.big');
  if (!select || !swatch) return;
  select.addEventListener('change', () => {
    swatch.style.background = colors[select.value] || '#999';
  });
})();
