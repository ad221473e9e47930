// Gleaner's embeddable search box. A site owner pastes two lines into a page:
//   <script src="https://search.example.org/embed.js" defer></script>
//   <div data-gleaner></div>
// and runs `gleaner serve --allow-origin https://www.example.org`. Every element with `data-gleaner`
// becomes a search box whose results open in a list under it, read from Gleaner's /api/search.
// No framework and no inline code: styles are set through the DOM (allowed under any style-src), results
// are text nodes (a crawled title can never become markup), and the page's CSP needs only Gleaner's
// origin in script-src and connect-src. Keyboard: arrows move through the results, Enter opens one
// (or Gleaner's full results page when none is chosen), Escape closes the list.
// Options on the element: data-gleaner-label (the field's label, default "Search this site"),
// data-gleaner-site (adds site:HOST to every query), data-gleaner-results (how many, 1-20, default 8).
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src || !window.fetch) return;
  var GLEANER = new URL(script.src).origin;
  var DEBOUNCE_MS = 150;
  var count = 0;

  function css(el, styles) {
    for (var k in styles) el.style.setProperty(k, styles[k]);
  }

  function mount(host) {
    if (host.getAttribute('data-gleaner-ready') === '1') return;
    host.setAttribute('data-gleaner-ready', '1');
    var id = 'gleaner-' + ++count;
    var site = host.getAttribute('data-gleaner-site') || '';
    var size = Math.min(20, Math.max(1, parseInt(host.getAttribute('data-gleaner-results') || '8', 10) || 8));

    var form = document.createElement('form');
    form.setAttribute('role', 'search');
    form.action = GLEANER + '/search';
    form.method = 'get';
    css(form, { position: 'relative', 'max-width': '36rem' });
    var label = document.createElement('label');
    label.htmlFor = id + '-q';
    label.textContent = host.getAttribute('data-gleaner-label') || 'Search this site';
    css(label, { display: 'block', 'margin-bottom': '.25rem' });
    var input = document.createElement('input');
    input.type = 'search';
    input.name = 'q';
    input.id = id + '-q';
    input.autocomplete = 'off';
    // A query in Arabic or Hebrew runs right to left as it is typed (the text decides).
    input.dir = 'auto';
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-controls', id + '-list');
    css(input, { width: '100%', 'box-sizing': 'border-box', font: 'inherit', padding: '.5rem .6rem' });
    var list = document.createElement('ul');
    list.id = id + '-list';
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', 'Search results');
    list.hidden = true;
    css(list, {
      position: 'absolute', left: '0', right: '0', 'z-index': '2147483000', margin: '.25rem 0 0', padding: '0',
      'list-style': 'none', background: 'Canvas', color: 'CanvasText', border: '1px solid GrayText',
      'border-radius': '6px', 'max-height': '24rem', 'overflow-y': 'auto', 'box-shadow': '0 4px 16px rgba(0,0,0,.15)',
    });
    var status = document.createElement('div');
    status.setAttribute('role', 'status');
    status.setAttribute('aria-live', 'polite');
    css(status, { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', 'white-space': 'nowrap' });
    form.appendChild(label);
    form.appendChild(input);
    form.appendChild(list);
    form.appendChild(status);
    host.appendChild(form);

    var hits = [];
    var active = -1;
    var timer = 0;
    var asked = 0;
    var controller = null;

    function close() {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
      active = -1;
    }

    function choose(i) {
      var items = list.children;
      if (active >= 0 && items[active]) css(items[active], { background: 'transparent' });
      active = i;
      if (i < 0 || !items[i]) return input.removeAttribute('aria-activedescendant');
      items[i].setAttribute('aria-selected', 'true');
      css(items[i], { background: 'Highlight', color: 'HighlightText' });
      for (var j = 0; j < items.length; j++) if (j !== i) { items[j].setAttribute('aria-selected', 'false'); css(items[j], { color: 'CanvasText' }); }
      // The dimmed lines (address, parent, date) at full strength on the chosen row: HighlightText at
      // .75 on Chromium's Highlight is 3.7:1, under the 4.5:1 small text needs (WCAG 1.4.3).
      for (var k = 0; k < items.length; k++) {
        var dim = items[k].children;
        for (var d = 0; d < dim.length; d++) if (dim[d].style.opacity) css(dim[d], { opacity: k === i ? '1' : '.75' });
      }
      input.setAttribute('aria-activedescendant', items[i].id);
      items[i].scrollIntoView({ block: 'nearest' });
    }

    /** The page's own text (title, snippet, headings) in its language and direction: an Arabic or
     * Hebrew result runs right to left, and a screen reader reads it in its language; the box's
     * labels ("Recommended", the address) keep the host page's. */
    function ownText(el, hit) {
      var lang = typeof hit.language === 'string' && /^[a-z]{2,3}$/.test(hit.language) ? hit.language : '';
      if (lang) el.lang = lang;
      // The API says which way the text runs (web/text-direction.ts); an older server does not.
      el.dir = hit.direction === 'rtl' || hit.direction === 'ltr' ? hit.direction : 'auto';
      return el;
    }

    /** Where a result leads: the section that matched, when the API names one, else the page. */
    function linkOf(hit) {
      return hit.section ? hit.section.url : hit.url;
    }

    function open(url) {
      // Only web addresses: a crawled "javascript:" URL must never run here.
      if (/^https?:\/\//i.test(url)) window.location.assign(url);
    }

    function show(results, total, recommended, completed) {
      while (list.firstChild) list.removeChild(list.firstChild);
      hits = results;
      results.forEach(function (hit, i) {
        var item = document.createElement('li');
        item.id = id + '-r' + i;
        item.setAttribute('role', 'option');
        item.setAttribute('aria-selected', 'false');
        css(item, { padding: '.5rem .75rem', cursor: 'pointer', 'border-bottom': '1px solid rgba(128,128,128,.25)' });
        // As on Gleaner's own result page: the page one level up (a breadcrumb), the title, the section
        // that matched when it is not the page's top (the link then goes to it), the address, the snippet.
        var target = linkOf(hit);
        if (hit.context) {
          var context = document.createElement('span');
          context.className = 'gleaner-context';
          context.textContent = hit.context + ' \u203a';
          ownText(context, hit);
          css(context, { display: 'block', 'font-size': '.8em', opacity: '.75' });
          item.appendChild(context);
        }
        // A page the site promotes for the query (serve --promoted): first, and says so.
        if (hit.promoted) {
          var mark = document.createElement('span');
          mark.className = 'gleaner-promoted';
          mark.textContent = 'Recommended';
          css(mark, { display: 'block', 'font-size': '.75em', 'font-weight': '600', 'text-transform': 'uppercase', opacity: '.75' });
          item.appendChild(mark);
        }
        var title = document.createElement('strong');
        title.textContent = hit.title || hit.url;
        if (hit.title) ownText(title, hit);
        css(title, { display: 'block' });
        item.appendChild(title);
        if (hit.section) {
          var heading = document.createElement('span');
          heading.className = 'gleaner-section';
          heading.textContent = hit.section.heading;
          ownText(heading, hit);
          css(heading, { display: 'block', 'font-size': '.9em' });
          item.appendChild(heading);
        }
        var where = document.createElement('small');
        where.textContent = target;
        where.dir = 'ltr';
        css(where, { display: 'block', opacity: '.75', 'overflow-wrap': 'anywhere' });
        var snippet = document.createElement('span');
        snippet.textContent = hit.snippet || '';
        ownText(snippet, hit);
        css(snippet, { display: 'block', 'font-size': '.9em' });
        item.appendChild(where);
        // The page's day, when it has a date (`2024-03-05`, as the result page shows it).
        if (typeof hit.date === 'string') {
          var when = document.createElement('time');
          when.className = 'gleaner-date';
          when.dateTime = hit.date;
          when.textContent = hit.date.slice(0, 10);
          css(when, { display: 'block', 'font-size': '.8em', opacity: '.75' });
          item.appendChild(when);
        }
        item.appendChild(snippet);
        // mousedown keeps the focus in the field; click opens.
        item.addEventListener('mousedown', function (e) { e.preventDefault(); });
        item.addEventListener('click', function () { open(target); });
        list.appendChild(item);
      });
      active = -1;
      list.hidden = results.length === 0;
      input.setAttribute('aria-expanded', results.length > 0 ? 'true' : 'false');
      // Read out by screen readers: the promoted pages are counted apart from the query's results.
      var counts = [];
      if (recommended > 0) counts.push(recommended + ' recommended');
      // `total` counts the pages with every word; with none, the list holds the partial matches.
      var partial = results.length - recommended;
      if (total > 0) counts.push(total + (total === 1 ? ' result' : ' results'));
      else if (partial > 0) counts.push(partial + (partial === 1 ? ' partial match' : ' partial matches') + ', lacking some words');
      else if (recommended === 0) counts.push('No results');
      // Results of the query with its last word completed: the status says which words they are for.
      status.textContent = counts.join(', ') + (completed && total > 0 ? ' for ' + completed : '');
    }

    function search() {
      var q = input.value.trim();
      if (q === '') return close();
      var mine = ++asked;
      if (controller) controller.abort();
      controller = new AbortController();
      // complete=1: the last word may be half typed ("hab"); with no page holding every word as typed,
      // Gleaner searches it completed ("habitat") and says so in completedFrom, as Pagefind and DocSearch
      // match the last word as a prefix. The site filter goes first so that the last word stays last.
      var typed = input.value.replace(/^\s+/, '');
      var url = GLEANER + '/api/search?complete=1&size=' + size + '&q=' + encodeURIComponent(site ? 'site:' + site + ' ' + typed : typed);
      fetch(url, { mode: 'cors', credentials: 'omit', signal: controller.signal })
        .then(function (res) {
          if (res.ok) return res.json();
          // An error answer is said, in Gleaner's words when it gave them (a size above the server's
          // --max-page-size, an index being rebuilt), not shown as "No results".
          return res.json().catch(function () { return {}; }).then(function (body) {
            var said = body && body.error && typeof body.error.message === 'string' ? body.error.message : 'HTTP ' + res.status;
            throw { gleanerError: said };
          });
        })
        .then(function (body) {
          if (mine !== asked) return;
          var valid = function (h) { return h && typeof h.url === 'string'; };
          var results = Array.isArray(body.results) ? body.results.filter(valid) : [];
          var promoted = Array.isArray(body.promoted) ? body.promoted.filter(valid).map(function (h) { return Object.assign({}, h, { promoted: true }); }) : [];
          show(promoted.concat(results), typeof body.total === 'number' ? body.total : results.length, promoted.length, typeof body.completedFrom === 'string' ? body.understood : undefined);
        })
        .catch(function (e) {
          if ((e && e.name === 'AbortError') || mine !== asked) return;
          show([], 0, 0);
          status.textContent = e && typeof e.gleanerError === 'string' ? 'Search failed: ' + e.gleanerError : 'Search is not available here';
        });
    }

    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(search, DEBOUNCE_MS);
    });
    input.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowDown' && hits.length > 0) {
        e.preventDefault();
        if (list.hidden) { list.hidden = false; input.setAttribute('aria-expanded', 'true'); }
        choose(Math.min(hits.length - 1, active + 1));
      } else if (e.key === 'ArrowUp' && hits.length > 0) {
        e.preventDefault();
        // A closed list opens on the last result (the ARIA combobox pattern), never chooses one unseen.
        if (list.hidden) { list.hidden = false; input.setAttribute('aria-expanded', 'true'); choose(hits.length - 1); }
        else choose(Math.max(0, active - 1));
      } else if (e.key === 'Enter' && active >= 0 && hits[active]) {
        e.preventDefault();
        open(linkOf(hits[active]));
      } else if (e.key === 'Escape') {
        // An open list is closed and the text kept (a search field's own Escape empties it); a second
        // Escape, with the list closed, empties the field as browsers do (the ARIA combobox pattern).
        if (!list.hidden) e.preventDefault();
        close();
      }
    });
    input.addEventListener('blur', close);
  }

  function mountAll() {
    var hosts = document.querySelectorAll('[data-gleaner]');
    for (var i = 0; i < hosts.length; i++) mount(hosts[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll);
  else mountAll();
})();
