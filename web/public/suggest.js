// Autocomplete for the search box: completes the last word from the index vocabulary through
// /api/suggest into the input's <datalist>, so the browser shows and navigates the list accessibly;
// the pages whose title or a heading matches go in a list of links under the box (Tab reaches them).
// Loaded as a file (the Content-Security-Policy allows no inline script). Without it, search still works.
(function () {
  'use strict';
  var input = document.getElementById('q');
  var list = document.getElementById('suggestions');
  var pageList = document.getElementById('page-suggestions');
  // Announces how many pages match when that changes, not the list itself: a live list was read out
  // whole on every keystroke.
  var pageStatus = document.getElementById('page-suggestions-status');
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

  function fillPages(pages) {
    if (!pageList) return;
    while (pageList.firstChild) pageList.removeChild(pageList.firstChild);
    pages.forEach(function (p) {
      var item = document.createElement('li');
      var link = document.createElement('a');
      link.href = p.url;
      link.textContent = p.heading ? p.title + ' › ' + p.heading : p.title; // textual: never parsed as HTML
      item.appendChild(link);
      pageList.appendChild(item);
    });
    pageList.hidden = pages.length === 0;
    var said = pages.length === 0 ? '' : pages.length === 1 ? '1 matching page below the search box' : pages.length + ' matching pages below the search box';
    if (pageStatus && pageStatus.textContent !== said) pageStatus.textContent = said;
  }

  function validPages(pages) {
    if (!Array.isArray(pages)) return [];
    return pages.filter(function (p) {
      return p && typeof p.title === 'string' && typeof p.url === 'string' && /^https?:\/\//.test(p.url);
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
        fillPages(validPages(body.pages));
      })
      .catch(function () { /* offline or aborted: no suggestions */ });
  }

  input.addEventListener('input', function () {
    var q = input.value;
    latest = q;
    clearTimeout(timer);
    if (!/\S$/.test(q)) { fill([]); fillPages([]); return; }
    timer = setTimeout(function () { ask(q); }, 120);
  });
})();
