/*
 * The first load's hint (index.html): "opened as a file" only when the page is opened as a file.
 * Over HTTP a slow first load (`npm start` while Vite optimises its dependencies) says only that
 * it is still loading. A classic script, not a module: opened from file:// the browser refuses
 * the page's modules, and the hint written in the page stays as it is.
 */
(function () {
  if (location.protocol === 'file:') return;
  var hint = document.getElementById('boot-hint');
  if (hint) hint.textContent = 'Still loading…';
})();
