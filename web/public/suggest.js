// Autocomplete for the search box: completes the last word from the index vocabulary through
// /api/suggest into the input's <datalist>, so the browser shows and navigates the list accessibly.
// Loaded as a file (the Content-Security-Policy allows no inline script). Without it, search still works.
(function () {
  'use strict';
  var input = document.getElementById('q');
  var list = document.getElementById('suggestions');
  if (!input || !list || !window.fetch) return;
  var timer = 0;
  var latest = '';
  var controller = null;

  function fill(suggestions) {
    while (list.firstChild) list.removeChild(list.firstChild);
    suggestions.forEach(function (s) {
      var option = document.createElement('option');
      option.value = s; // textual: never parsed as HTML
      list.appendChild(option);
    });
  }

  function ask(q) {
    if (controller) controller.abort();
    controller = 'AbortController' in window ? new AbortController() : null;
    fetch('/api/suggest?q=' + encodeURIComponent(q), { signal: controller ? controller.signal : undefined, headers: { Accept: 'application/json' } })
      .then(function (res) { return res.ok ? res.json() : { suggestions: [] }; })
      .then(function (body) {
        if (q !== latest) return;
        fill(Array.isArray(body.suggestions) ? body.suggestions.filter(function (s) { return typeof s === 'string'; }) : []);
      })
      .catch(function () { /* offline or aborted: no suggestions */ });
  }

  input.addEventListener('input', function () {
    var q = input.value;
    latest = q;
    clearTimeout(timer);
    if (!/\S$/.test(q)) { fill([]); return; }
    timer = setTimeout(function () { ask(q); }, 120);
  });
})();
