// Keeps the /stats page's "crawl" section current while a crawl runs: asks /api/stats/live every two
// seconds and writes the figures into the elements marked data-live, as text (host names and error
// reasons come from crawled sites: never markup). Stops asking once the crawl has ended. A file, not
// inline code: the Content-Security-Policy allows no inline script.
(function () {
  'use strict';
  var section = document.getElementById('live');
  if (!section || !window.fetch) return;
  var url = section.getAttribute('data-live-url');
  var EVERY_MS = 2000;
  var number = new Intl.NumberFormat('en-US');

  function field(name) { return section.querySelector('[data-live="' + name + '"]'); }
  function set(name, text) { var el = field(name); if (el) el.textContent = text; }
  function rows(name, list) {
    var body = field(name);
    if (!body) return;
    // Each cell keeps its column's name, for the narrow-screen layout (style.css: table.live-hosts).
    var labels = Array.prototype.map.call(body.parentNode.querySelectorAll('thead th'), function (th) { return th.textContent; });
    while (body.firstChild) body.removeChild(body.firstChild);
    if (list.length === 0) list = [['none']];
    list.forEach(function (cells) {
      var tr = document.createElement('tr');
      cells.forEach(function (text, i) {
        var td = document.createElement('td');
        td.textContent = text;
        if (labels[i]) td.setAttribute('data-label', labels[i]);
        if (i > 0) td.className = 'num';
        if (cells.length === 1) td.colSpan = 2;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  function show(s) {
    set('state', s.running ? 'is running' : 'has ended');
    set('updatedAt', 'just now');
    set('pages', number.format(s.pages));
    set('known', number.format(s.known));
    set('queued', number.format(s.queued));
    set('pagesPerSecond', s.pagesPerSecond.toFixed(1));
    set('blocked', number.format(Object.keys(s.stats.blockedByRule).reduce(function (a, k) { return a + s.stats.blockedByRule[k]; }, 0)));
    var total = s.hostsTotal === undefined ? s.hosts.length : s.hostsTotal;
    set('hostsCaption', total > s.hosts.length ? 'Per host: the ' + s.hosts.length + ' with the most pages, of ' + number.format(total) : 'Per host');
    set('errors', number.format(s.stats.errors));
    rows('hosts', s.hosts.map(function (h) {
      return [h.origin, number.format(h.pages), String(h.pagesPerMinute), number.format(h.queued), h.delayMs / 1000 + ' s', number.format(h.blocked), number.format(h.errors)];
    }));
    rows('errorsByReason', Object.keys(s.errorsByReason).sort(function (a, b) { return s.errorsByReason[b] - s.errorsByReason[a]; }).map(function (r) {
      return [r, number.format(s.errorsByReason[r])];
    }));
    // Said once when the crawl starts or ends (a status line): the figures themselves change every two
    // seconds and are not read out.
    var was = section.getAttribute('data-running') === '1';
    if (was !== s.running) set('announce', s.running ? 'The crawl has started.' : 'The crawl has ended.');
    section.setAttribute('data-running', s.running ? '1' : '0');
  }

  function poll() {
    fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-store' })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (s) {
        if (s) show(s);
        // While a crawl runs, every two seconds; after it, now and then, to notice the next one.
        setTimeout(poll, !s || s.running ? EVERY_MS : EVERY_MS * 5);
      })
      .catch(function () { setTimeout(poll, EVERY_MS * 2); });
  }
  setTimeout(poll, section.getAttribute('data-running') === '1' ? EVERY_MS : EVERY_MS * 5);
})();
