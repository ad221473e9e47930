// A faster tokenizer for htmlparser2's Parser, for extraction (extract.ts). htmlparser2's own Tokenizer
// looks at every character through a state switch; that loop was a third of a crawl's parse time on the
// Rust docs (issue 4). This one jumps: text to the next `<` or `&` with indexOf, a quoted attribute
// value to its closing quote, script and style bodies to the next `<`; and it reports no attributes
// extraction ignores (AttributeFilter: which tags, set per tag by the Parser, and which names).
//
// It tells the Parser exactly what htmlparser2 12's Tokenizer tells it in HTML mode with entities
// decoded (the only mode extraction uses), quirks included: the same tags, attributes, text, comments
// and doctype, at the same offsets, also for broken markup and documents cut off in mid-tag. Two
// constructs are read as a browser reads them instead, because htmlparser2's reading indexes text
// readers never see or hides text they do: where a script holding `<!--<script>` ends (ScriptEscapes),
// and `<![CDATA[` outside SVG and MathML. The
// Parser keeps doing the tree work (implied end tags, void elements, foreign content). Entities are
// decoded by the `entities` package's streaming decoder, the one htmlparser2 uses, in the same modes.
// html-tokenizer.test.ts compares the two tokenizers on generated and real documents.
//
// The whole document is tokenized in end(): extraction hands the Parser one string, so streaming
// (pause, resume, decoding across chunks) is not needed and not offered.

import { DecodingMode, EntityDecoder, htmlDecodeTree } from 'entities/decode';
import { QuoteType, type TokenizerCallbacks } from 'htmlparser2';

/** The htmlparser2 release whose Tokenizer this one mirrors, quirk for quirk. package.json pins exactly
 * this version; html-tokenizer.test.ts fails when either moves, so an upgrade means re-checking the
 * mirror (that test's generated and real-page comparisons) before changing this line. */
export const MIRRORED_HTMLPARSER2 = '12.0.0';

/** A Parser that can say, after each tag name, whether that tag's attributes are wanted, and which. */
export interface AttributeFilter {
  wantAttributes: boolean;
  /** The only attribute names (lower case) reported of a wanted tag; every name when absent. */
  wantedAttributes?: AttributeNames;
}

/** A set of attribute names (lower case), grouped by length for a quick no. */
export type AttributeNames = ReadonlyMap<number, readonly string[]>;

export function attributeNames(names: readonly string[]): AttributeNames {
  const byLength = new Map<number, string[]>();
  for (const name of names) byLength.set(name.length, [...(byLength.get(name.length) ?? []), name]);
  return byLength;
}

const TAB = 9;
const LF = 10;
const FF = 12;
const CR = 13;
const SPACE = 32;
const BANG = 33;
const DQUOTE = 34;
const AMP = 38;
const SQUOTE = 39;
const DASH = 45;
const SLASH = 47;
const LT = 60;
const EQ = 61;
const GT = 62;
const QUESTION = 63;
const LBRACKET = 91;

function isWhitespace(c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === FF || c === CR;
}

function isEndOfTagSection(c: number): boolean {
  return c === SLASH || c === GT || isWhitespace(c);
}

function isAsciiAlpha(c: number): boolean {
  return ((c | 0x20) - 97) >>> 0 <= 25;
}

const SCRIPT_END = '</script';
/** Elements whose content is text up to their end tag, with that end tag's opening (`</script`). */
const TEXT_ONLY_END = new Map<string, string>([
  ['script', SCRIPT_END],
  ['style', '</style'],
  ['title', '</title'],
  ['textarea', '</textarea'],
  ['iframe', '</iframe'],
  ['noembed', '</noembed'],
  ['noframes', '</noframes'],
  ['xmp', '</xmp'],
  ['plaintext', '</plaintext'],
]);
const TEXT_ONLY_FIRST = new Set([...TEXT_ONLY_END.keys()].map((name) => name.charCodeAt(0)));
const TEXT_ONLY_LONGEST = Math.max(...[...TEXT_ONLY_END.keys()].map((name) => name.length));
/** Of those, the ones whose text has entities decoded (RCDATA). */
const RCDATA = new Set(['title', 'textarea']);

/** `doctype`, as matched after `<!`. */
const DOCTYPE = 'doctype';
/** `CDATA[`, as matched after `<!`. */
const CDATA_OPEN = 'CDATA[';
const COMMENT_END = '--!>';
const CDATA_END = ']]>';

export class ScanTokenizer {
  /** Always true: the Parser asks before writing. */
  readonly running = true;
  private readonly cbs: TokenizerCallbacks & Partial<AttributeFilter>;
  private readonly decoder: EntityDecoder;
  private chunks: string[] = [];
  private readonly commentOpenings: CommentOpenings = { html: '', from: 0, at: -1 };
  private html = '';
  private sectionStart = 0;
  /** Where the entity being decoded starts (its `&`), and whether it is in an attribute value. */
  private entityStart = 0;
  private entityInAttribute = false;
  /** The first `&` at or after where scanning last asked (-1: none left); scanning only moves forward. */
  private ampAt = -1;
  private ampFrom = Infinity;
  /** Set by nextAttribute: the `>` ending the tag, or -1 when the document ended in it. */
  private tagEnd = -1;

  constructor(_options: unknown, cbs: TokenizerCallbacks) {
    this.cbs = cbs;
    this.decoder = new EntityDecoder(htmlDecodeTree, (cp, consumed) => this.emitCodePoint(cp, consumed));
  }

  write(chunk: string): void {
    this.chunks.push(chunk);
  }

  end(): void {
    this.html = this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join('');
    this.chunks = [];
    this.run();
    this.cbs.onend();
  }

  reset(): void {
    this.chunks = [];
    this.html = '';
    this.sectionStart = 0;
  }

  pause(): void {
    throw new Error('ScanTokenizer cannot pause: it tokenizes the whole document in end()');
  }

  resume(): void {}

  /** The decoder found an entity: report the text before it, then the character. */
  private emitCodePoint(cp: number, consumed: number): void {
    const cbs = this.cbs;
    if (this.entityInAttribute) {
      if (this.sectionStart < this.entityStart) cbs.onattribdata(this.sectionStart, this.entityStart);
      this.sectionStart = this.entityStart + consumed;
      cbs.onattribentity(cp);
    } else {
      if (this.sectionStart < this.entityStart) cbs.ontext(this.sectionStart, this.entityStart);
      this.sectionStart = this.entityStart + consumed;
      cbs.ontextentity(cp, this.sectionStart);
    }
  }

  /**
   * Decodes the entity whose `&` is at `amp`. Returns where scanning goes on: after the entity when one
   * was decoded, after the `&` when it starts none, -1 when the document ends inside it (then whatever
   * the decoder can still make of it has been reported).
   */
  private entity(amp: number, inAttribute: boolean): number {
    this.entityStart = amp;
    this.entityInAttribute = inAttribute;
    this.decoder.startEntity(inAttribute ? DecodingMode.Attribute : DecodingMode.Legacy);
    const consumed = this.decoder.write(this.html, amp + 1);
    if (consumed > 0) return amp + consumed;
    if (consumed === 0) return amp + 1;
    this.decoder.end();
    return -1;
  }

  /** The index of the first `&` at or after `from`, or -1: one search per `&` in the document, not per question. */
  private nextAmp(from: number): number {
    if (from < this.ampFrom || (this.ampAt !== -1 && this.ampAt < from)) {
      this.ampAt = this.html.indexOf('&', from);
      this.ampFrom = from;
    }
    return this.ampAt;
  }

  /** The document ended in text (or in a place whose leftovers the Parser takes as text). */
  private trailingText(): void {
    if (this.sectionStart < this.html.length) this.cbs.ontext(this.sectionStart, this.html.length);
  }

  private run(): void {
    const html = this.html;
    const len = html.length;
    const cbs = this.cbs;
    this.sectionStart = 0;
    this.ampFrom = Infinity;
    let i = 0;
    let lt = -2; // the next `<` at or after i (-1: none left), kept across the entities before it
    for (;;) {
      // Text.
      if (lt !== -1 && lt < i) lt = html.indexOf('<', i);
      const amp = this.nextAmp(i);
      if (amp !== -1 && (lt === -1 || amp < lt)) {
        i = this.entity(amp, false);
        if (i === -1) { this.trailingText(); return; }
        continue;
      }
      if (lt === -1) { this.trailingText(); return; }
      if (lt > this.sectionStart) cbs.ontext(this.sectionStart, lt);
      this.sectionStart = lt;
      i = lt + 1;
      if (i >= len) { this.trailingText(); return; }
      const c = html.charCodeAt(i);
      if (isAsciiAlpha(c)) {
        i = this.openTag(i);
      } else if (c === SLASH) {
        i = this.closeTag(i + 1);
      } else if (c === BANG) {
        this.sectionStart = i + 1;
        i = this.declaration(i + 1);
      } else if (c === QUESTION) {
        this.sectionStart = i;
        i = this.bogusComment(i + 1);
      } else {
        continue; // not markup: the `<` is text, and scanning goes on from the character after it
      }
      if (i === -1) return;
    }
  }

  /** `<name ...>` with the name starting at `start`. Returns where text resumes, or -1 at the end. */
  private openTag(start: number): number {
    const html = this.html;
    const len = html.length;
    const cbs = this.cbs;
    let i = start + 1;
    while (i < len && !isEndOfTagSection(html.charCodeAt(i))) i++;
    // Elements whose content is not markup, as htmlparser2 recognises them: by name, outside SVG and
    // MathML. The Parser reads the name too, so it is sliced here only when it could be one of them.
    const lower = TEXT_ONLY_FIRST.has(html.charCodeAt(start) | 0x20) && i - start <= TEXT_ONLY_LONGEST ? html.slice(start, i).toLowerCase() : '';
    const foreign = lower !== '' && (cbs.isInForeignContext?.() ?? false);
    const endSequence = lower === '' || foreign ? undefined : TEXT_ONLY_END.get(lower);
    if (i >= len) {
      // Cut off in the name: htmlparser2 drops the tag, unless the name so far could still become a
      // text-only element's, whose letters it keeps as text.
      if (lower !== '' && !foreign && [...TEXT_ONLY_END.keys()].some((name) => name.startsWith(lower))) {
        this.sectionStart = start;
        this.trailingText();
      }
      return -1;
    }
    cbs.onopentagname(start, i);
    this.sectionStart = -1;
    const end = this.attributes(i, cbs.wantAttributes !== false);
    if (end === -1) return -1;
    // `end` is the `>`; a `/` before it (self-closing) has been reported by attributes().
    this.sectionStart = end + 1;
    if (endSequence === undefined) return end + 1;
    if (lower === 'plaintext') {
      this.trailingText();
      return -1;
    }
    return this.textOnly(end + 1, endSequence, RCDATA.has(lower));
  }

  /**
   * From `from`, between attributes: skips whitespace and stray `/`. Returns where the next attribute's
   * name starts, or -1 when the tag ends instead, with `tagEnd` set to its `>` (after telling the Parser
   * the tag is complete, self-closing when `/` and whitespace came just before) or to -1 when the
   * document ends first. htmlparser2 drops a tag cut off there, except right after a `/`, where it
   * reports text from `sectionStart` (-1 inside a tag: the document's last character).
   */
  private nextAttribute(from: number): number {
    const html = this.html;
    const len = html.length;
    let i = from;
    let afterSlash = false;
    for (; i < len; i++) {
      const c = html.charCodeAt(i);
      if (isWhitespace(c)) continue;
      if (c === GT) {
        if (afterSlash) this.cbs.onselfclosingtag(i);
        else this.cbs.onopentagend(i);
        this.tagEnd = i;
        return -1;
      }
      if (c !== SLASH) return i;
      afterSlash = true;
    }
    if (afterSlash) this.cbs.ontext(this.sectionStart, len);
    this.tagEnd = -1;
    return -1;
  }

  /**
   * A tag's attributes from `from`, each reported to the Parser when `report` is set and the Parser
   * wants that name (AttributeFilter). Returns the index of the tag's `>` after telling the Parser the
   * tag is complete, or -1 when the document ends first.
   */
  private attributes(from: number, report: boolean): number {
    const html = this.html;
    const len = html.length;
    const cbs = this.cbs;
    let i = from;
    for (;;) {
      i = this.nextAttribute(i);
      if (i === -1) return this.tagEnd;
      // A name: its first character may be anything that does not end the tag, `=` too.
      const nameStart = i;
      i++;
      while (i < len && !isNameEnd(html.charCodeAt(i))) i++;
      if (i >= len) return -1;
      const reported = report && this.wantsAttribute(nameStart, i);
      if (reported) cbs.onattribname(nameStart, i);
      const nameEnd = i;
      while (i < len && isWhitespace(html.charCodeAt(i))) i++;
      if (i >= len) return -1;
      if (html.charCodeAt(i) !== EQ) {
        if (reported) cbs.onattribend(QuoteType.NoValue, nameEnd);
        continue;
      }
      i++;
      while (i < len && isWhitespace(html.charCodeAt(i))) i++;
      if (i >= len) return -1;
      const c = html.charCodeAt(i);
      if (reported) {
        i = c === DQUOTE || c === SQUOTE ? this.quotedValue(i + 1, c) : this.unquotedValue(i);
        if (i === -1) return -1;
      } else if (c === DQUOTE || c === SQUOTE) {
        // Only where an unread value ends matters; no entity can hide a quote, whitespace or `>`.
        const close = html.indexOf(c === DQUOTE ? '"' : "'", i + 1);
        if (close === -1) return -1;
        i = close + 1;
      } else {
        while (i < len && !isWhitespace(html.charCodeAt(i)) && html.charCodeAt(i) !== GT) i++;
      }
    }
  }

  /** Whether the Parser wants the attribute named by html[start, end): all of them unless it says. */
  private wantsAttribute(start: number, end: number): boolean {
    const wanted = this.cbs.wantedAttributes;
    if (wanted === undefined) return true;
    const candidates = wanted.get(end - start);
    if (candidates === undefined) return false; // most names: no wanted name is that long
    const html = this.html;
    // ASCII case folding by `| 0x20`, without slicing: it may also match a name the Parser's
    // toLowerCase would not (a control character for `-` or `:`), which only reports one attribute more.
    for (const name of candidates) {
      let k = 0;
      while (k < name.length && (html.charCodeAt(start + k) | 0x20) === name.charCodeAt(k)) k++;
      if (k === name.length) return true;
    }
    return false;
  }

  /** A value in `quote`s starting at `from`; returns the index after the closing quote, or -1. */
  private quotedValue(from: number, quote: number): number {
    const html = this.html;
    const quoteChar = quote === DQUOTE ? '"' : "'";
    this.sectionStart = from;
    let i = from;
    for (;;) {
      const close = html.indexOf(quoteChar, i);
      if (close === -1) return -1;
      const amp = this.nextAmp(i);
      if (amp !== -1 && amp < close) {
        i = this.entity(amp, true);
        if (i === -1) return -1;
        continue;
      }
      this.cbs.onattribdata(this.sectionStart, close);
      this.sectionStart = -1;
      this.cbs.onattribend(quote === DQUOTE ? QuoteType.Double : QuoteType.Single, close + 1);
      return close + 1;
    }
  }

  /** A value without quotes starting at `from`; returns the index of the whitespace or `>` ending it, or -1. */
  private unquotedValue(from: number): number {
    const html = this.html;
    const len = html.length;
    this.sectionStart = from;
    let i = from;
    for (;;) {
      if (i >= len) return -1;
      const c = html.charCodeAt(i);
      if (isWhitespace(c) || c === GT) break;
      if (c === AMP) {
        i = this.entity(i, true);
        if (i === -1) return -1;
        continue;
      }
      i++;
    }
    this.cbs.onattribdata(this.sectionStart, i);
    this.sectionStart = -1;
    this.cbs.onattribend(QuoteType.Unquoted, i);
    return i;
  }

  /** `</name ...>` with what follows `</` at `from`. Returns where text resumes, or -1 at the end. */
  private closeTag(from: number): number {
    const html = this.html;
    const len = html.length;
    if (from >= len) return this.trailingText(), -1; // `</` at the very end is text
    const c = html.charCodeAt(from);
    if (c === GT) {
      this.sectionStart = from + 1; // `</>` is nothing
      return from + 1;
    }
    if (!isAsciiAlpha(c)) {
      this.sectionStart = from; // `</ x>`, `</3>`: a bogus comment
      return this.bogusComment(from + 1);
    }
    let i = from + 1;
    while (i < len && !isEndOfTagSection(html.charCodeAt(i))) i++;
    if (i >= len) return -1; // cut off in the name: dropped
    this.cbs.onclosetag(from, i);
    this.sectionStart = -1;
    return this.toTagEnd(i);
  }

  /** Anything up to the `>` after an end tag's name is ignored. */
  private toTagEnd(from: number): number {
    const gt = this.html.indexOf('>', from);
    if (gt === -1) {
      this.trailingText(); // htmlparser2 quirk: from -1, that is the document's last character
      return -1;
    }
    this.sectionStart = gt + 1;
    return gt + 1;
  }

  /** A comment that ends at the next `>` (`<?...>`, `<!x...>`, `</ ...>`); `sectionStart` is its start. */
  private bogusComment(from: number): number {
    const gt = this.html.indexOf('>', from);
    if (gt === -1) {
      this.cbs.oncomment(this.sectionStart, this.html.length, 0);
      return -1;
    }
    this.cbs.oncomment(this.sectionStart, gt, 0);
    this.sectionStart = gt + 1;
    return gt + 1;
  }

  /** What follows `<!` at `from` (also `sectionStart`): a comment, CDATA, a doctype or a bogus comment. */
  private declaration(from: number): number {
    const html = this.html;
    const len = html.length;
    const cbs = this.cbs;
    if (from >= len) {
      cbs.oncomment(this.sectionStart, len, 0);
      return -1;
    }
    const c = html.charCodeAt(from);
    if (c === LBRACKET) {
      let i = from + 1;
      for (let k = 0; k < CDATA_OPEN.length; k++, i++) {
        if (i >= len) {
          cbs.oncomment(this.sectionStart, len, 0);
          return -1;
        }
        if (html.charCodeAt(i) !== CDATA_OPEN.charCodeAt(k)) {
          if (html.charCodeAt(i) === GT) {
            cbs.oncomment(this.sectionStart, i, 0);
            this.sectionStart = i + 1;
            return i + 1;
          }
          return this.bogusComment(i + 1);
        }
      }
      // Outside SVG and MathML a browser reads `<![CDATA[` as a bogus comment that ends at the next
      // `>` (WHATWG 13.2.5.42, cdata-in-html-content); htmlparser2 runs it to `]]>`, so one stray
      // `<![CDATA[` hid the rest of a page its readers see. The two agree wherever that `>` is the
      // one of `]]>`; inside SVG and MathML both read a CDATA section.
      if (!(cbs.isInForeignContext?.() ?? false)) return this.bogusComment(i);
      this.sectionStart = i;
      return this.commentLike(i, CDATA_END);
    }
    if ((c | 0x20) === DOCTYPE.charCodeAt(0)) {
      let i = from + 1;
      for (let k = 1; k < DOCTYPE.length; k++, i++) {
        if (i >= len) {
          cbs.oncomment(this.sectionStart, len, 0);
          return -1;
        }
        const d = html.charCodeAt(i);
        if ((d | 0x20) !== DOCTYPE.charCodeAt(k)) {
          if (d === GT) {
            cbs.oncomment(this.sectionStart, i, 0);
            this.sectionStart = i + 1;
            return i + 1;
          }
          return this.bogusComment(i + 1);
        }
      }
      const gt = html.indexOf('>', i);
      if (gt === -1) return -1; // an unfinished doctype is dropped
      cbs.ondeclaration(this.sectionStart, gt);
      this.sectionStart = gt + 1;
      return gt + 1;
    }
    if (c === GT) {
      cbs.oncomment(this.sectionStart, from, 0); // `<!>`
      this.sectionStart = from + 1;
      return from + 1;
    }
    if (c === DASH) {
      const i = from + 1;
      if (i >= len) {
        cbs.oncomment(this.sectionStart, len, 0);
        return -1;
      }
      const d = html.charCodeAt(i);
      if (d === DASH) {
        this.sectionStart = i + 1;
        return this.commentLike(i + 1, COMMENT_END);
      }
      if (d === GT) {
        cbs.oncomment(this.sectionStart, i, 0); // `<!->`
        this.sectionStart = i + 1;
        return i + 1;
      }
      return this.bogusComment(i + 1);
    }
    return this.bogusComment(from + 1);
  }

  /**
   * A comment (`-->`, also `--!>`, `<!-->` and `<!--->`) or CDATA section (`]]>`) from `from`, which
   * is `sectionStart`. Step by step as htmlparser2 matches the end, so odd dash runs end where its do.
   */
  private commentLike(from: number, endSequence: string): number {
    const html = this.html;
    const len = html.length;
    const cbs = this.cbs;
    const isComment = endSequence === COMMENT_END;
    let k = 0; // characters of endSequence matched
    let i = from;
    while (i < len) {
      const c = html.charCodeAt(i);
      if (isComment && k <= 1 && i === this.sectionStart + k && c === GT) {
        return this.endComment(i, k); // `<!-->`, `<!--->`
      }
      if (isComment && k === 2 && c === GT) return this.endComment(i, 2); // `-->`
      if (isComment && k === endSequence.length - 1 && c !== GT) {
        k = c === DASH ? 1 : 0;
      } else if (c === endSequence.charCodeAt(k)) {
        if (++k === endSequence.length) {
          if (isComment) cbs.oncomment(this.sectionStart, i, 3);
          else cbs.oncdata(this.sectionStart, i, 2);
          this.sectionStart = i + 1;
          return i + 1;
        }
      } else if (k === 0) {
        const next = html.indexOf(endSequence[0]!, i + 1);
        if (next === -1) break;
        i = next;
        k = 1;
      } else if (c !== endSequence.charCodeAt(k - 1)) {
        k = 0;
      }
      i++;
    }
    if (isComment) cbs.oncomment(this.sectionStart, len, Math.min(k, COMMENT_END.length - 1));
    else cbs.oncomment(this.sectionStart - CDATA_OPEN.length - 1, len, 0); // unclosed CDATA: a bogus comment
    return -1;
  }

  private endComment(gt: number, offset: number): number {
    this.cbs.oncomment(this.sectionStart, gt, offset);
    this.sectionStart = gt + 1;
    return gt + 1;
  }

  /**
   * The content of script, style, title and the like, up to `</name` followed by whitespace, `/` or
   * `>`. Title and textarea content has its entities decoded. Returns where text resumes, or -1.
   */
  private textOnly(from: number, endSequence: string, rcdata: boolean): number {
    const html = this.html;
    const len = html.length;
    const seqLength = endSequence.length;
    const escapes = endSequence === SCRIPT_END ? new ScriptEscapes(html, from, this.commentOpenings) : undefined;
    let k = 0;
    let i = from;
    while (i < len) {
      const c = html.charCodeAt(i);
      if (k === seqLength) {
        if (isEndOfTagSection(c) && (escapes === undefined || escapes.ends(i - seqLength))) {
          const endOfText = i - seqLength;
          if (this.sectionStart < endOfText) this.cbs.ontext(this.sectionStart, endOfText);
          this.cbs.onclosetag(endOfText + 2, i);
          this.sectionStart = -1;
          return this.toTagEnd(i);
        }
        k = 0;
      }
      // Compared as htmlparser2 does (`c | 0x20`), so its matches and misses are ours.
      if ((c | 0x20) === endSequence.charCodeAt(k)) {
        k++;
      } else if (k === 0) {
        if (rcdata) {
          if (c === AMP) {
            const next = this.entity(i, false);
            if (next === -1) return this.trailingText(), -1;
            i = next;
            continue;
          }
        } else {
          const next = html.indexOf('<', i + 1);
          if (next === -1) break;
          i = next;
          k = 1;
        }
      } else {
        k = c === LT ? 1 : 0;
      }
      i++;
    }
    this.trailingText();
    return -1;
  }
}

/** What changes a script's escape state (WHATWG 13.2.5.15-32): `<!--` and `-->`, and `<script` or
 * `</script` followed by whitespace, `/` or `>`. */
const SCRIPT_ESCAPE_MARK = /<!--|-->|<\/?script(?=[\t\n\f\r />])/giy;

/**
 * A browser's reading of where a script ends, where htmlparser2 (and so this tokenizer, otherwise)
 * ends it at the first `</script>`: after `<!--<script>` inside a script, the next `</script>` does not
 * close it (the "double escaped" state), so `<script>var t = "<!--<script>"; x</script>shown?</script>`
 * hides "shown?" from readers. Without this, a page could show search engines words its readers never
 * see. Asked only at a candidate end; scans each part of the script once.
 */
class ScriptEscapes {
  private state: 'data' | 'escaped' | 'double' = 'data';
  private at: number;
  constructor(
    private readonly html: string,
    from: number,
    /** The document's next `<!--` (nextOpening), shared by its scripts. */
    private readonly openings: CommentOpenings,
  ) {
    this.at = from;
  }

  /** Whether the `</script` at `end` closes the script; if not, the state moves past it. */
  ends(end: number): boolean {
    const { html } = this;
    const re = SCRIPT_ESCAPE_MARK;
    let i = this.at;
    while (i < end) {
      // Outside an escape only `<!--` matters; inside one, `-->` and the script tags too.
      const next = this.state === 'data' ? this.nextOpening(i) : firstOf(html.indexOf('<', i), html.indexOf('-->', i));
      if (next === -1 || next >= end) break;
      re.lastIndex = next;
      const mark = re.exec(html)?.[0].toLowerCase();
      // After `<!--` its own dashes may begin the `-->` that ends it: `<!-->` opens and closes at once.
      i = next + (mark === '<!--' ? 2 : (mark?.length ?? 1));
      if (mark === '<!--') this.state = 'escaped';
      else if (mark === '-->') this.state = 'data';
      else if (mark === '<script' && this.state === 'escaped') this.state = 'double';
      else if (mark === '</script' && this.state === 'double') this.state = 'escaped';
    }
    this.at = end;
    if (this.state !== 'double') return true;
    // This `</script` ends the double escape, not the script.
    this.state = 'escaped';
    this.at = end + SCRIPT_END.length;
    return false;
  }

  /** The next `<!--` at or after `i`, remembered for the document: a search that finds none before a
   * script's end runs on through the page, and a page of many scripts would search it again for each. */
  private nextOpening(i: number): number {
    const o = this.openings;
    if (o.html !== this.html || (o.at !== -1 && o.at < i) || o.from > i) {
      o.html = this.html;
      o.from = i;
      o.at = this.html.indexOf('<!--', i);
    }
    return o.at;
  }
}

interface CommentOpenings {
  html: string;
  /** Where the search started, and the `<!--` it found there or after (-1: none). */
  from: number;
  at: number;
}

/** The smaller of two indexOf results, -1 when both are. */
function firstOf(a: number, b: number): number {
  return a === -1 ? b : b === -1 ? a : Math.min(a, b);
}

/** Where an attribute name ends: whitespace, `/`, `>` or `=`. */
function isNameEnd(c: number): boolean {
  return c === EQ || isEndOfTagSection(c);
}
