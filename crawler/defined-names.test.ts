import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';
import { nameOfTerm, namesOfId } from './defined-names.js';

const defines = (html: string) => extractHtml(html, 'http://example.test/ref.html').defines;

describe('names a page defines', () => {
  it('takes the name a definition term opens with, as each documentation generator writes it', () => {
    const html =
      // Sphinx, PostgreSQL, texinfo, SQLite, DocBook function synopsis in a dt.
      '<dl><dt class="sig" id="os.path.join"><code>os.path.</code><code>join</code>(path, *paths)¶</dt><dd>Join paths.</dd></dl>' +
      '<dl><dt id="GUC-MAX-CONNECTIONS"><span class="term"><code>max_connections</code> (<code>integer</code>)</span></dt><dd>Sets…</dd></dl>' +
      "<dl><dt id='index-PROMPT_005fCOMMAND'><span><code>PROMPT_COMMAND</code><a href='#index-PROMPT_005fCOMMAND'> ¶</a></span></dt><dd>If set…</dd></dl>" +
      '<a name="group_concat"></a><dl><dt><p><b>group_concat(<i>X</i>)<br>group_concat(<i>X</i>,<i>Y</i>)</b></dt><dd>The…</dd></dl>' +
      '<dl><dt>class <code>collections.OrderedDict</code>([items])</dt></dl>';
    expect(defines(html)).toEqual(['os.path.join', 'max_connections', 'PROMPT_COMMAND', 'group_concat', 'collections.OrderedDict']);
  });

  it('takes the identifiers an id or an anchor name spells, and nothing from ids of plain words', () => {
    const html =
      '<div id="main"><div id="sidebar-nav"></div>' +
      '<h3 class="title"><a name="mwg-pam_get_item"></a>2.1.4. Getting PAM items</h3>' +
      '<section id="method.unwrap_or"><h4>pub fn unwrap_or(self, default: T) -> T</h4></section>' +
      '<section id="impl-From%3CT%3E-for-Option%3CT%3E"><h3>impl&lt;T&gt; From&lt;T&gt; for Option&lt;T&gt;</h3></section></div>';
    expect(defines(html)).toEqual(['pam_get_item', 'method.unwrap_or', 'unwrap_or']);
  });

  it('leaves out plain words, option letters and names after the parameters', () => {
    expect(nameOfTerm('pipefail')).toBeUndefined();
    expect(nameOfTerm('-o option-name')).toBeUndefined();
    expect(nameOfTerm('copy(src, dst_dir)')).toBeUndefined();
    expect(nameOfTerm('when the value of the setting is max_wal_size')).toBeUndefined();
    expect(nameOfTerm('int pam_get_item(pamh, item_type)')).toBe('pam_get_item');
    expect(defines('<dl><dt>Glossary term</dt><dd>text with a_name in it</dd></dl>')).toBeUndefined();
  });

  it('decodes texinfo and percent escapes in ids, and keeps a stray % as written', () => {
    expect(namesOfId('index-BASH_005fVERSINFO')).toEqual(['BASH_VERSINFO']);
    expect(namesOfId('pam_face')).toEqual(['pam_face']);
    expect(namesOfId('str.split%')).toEqual([]);
    expect(namesOfId('module-os.path')).toEqual(['os.path']);
  });

  it('keeps each name once and at most maxNames of them', () => {
    const many = Array.from({ length: 2100 }, (_, i) => `<dt>name_${i}</dt><dt>name_${i}</dt>`).join('');
    const names = defines(`<dl>${many}</dl>`)!;
    expect(names).toHaveLength(2000);
    expect(new Set(names).size).toBe(2000);
  });
});
