// Page-level robots directives: META robots (including seed 002's old `ALL=` / `NONE=` forms), the
// agent-specific META (`<meta name="gleaner">`) and the X-Robots-Tag header. Pure; the extractor and the
// fetch step call these and merge the results with `mergeRobots`.
//
// Decisions:
// - Only `index` and `follow` matter to Gleaner; other tokens (noarchive, nosnippet, max-snippet:...,
//   unavailable_after:...) are ignored.
// - Most restrictive wins everywhere: within one tag (`index, noindex` is noindex), across tags, across
//   META and header, and between the generic (`robots`) and the agent-specific (`gleaner`) forms. An
//   agent-specific `index` therefore never lifts a generic `noindex`; it can only add restrictions. This is
//   how the major engines combine them, and it can never make Gleaner index what a site meant to hide.
// - `ALL=` / `NONE=` (seed 002) switch the following directives on / off until the end of the list:
//   `ALL=INDEX,FOLLOW` allows both, `NONE=INDEX,FOLLOW` is `noindex, nofollow`, `NONE=FOLLOW` is `nofollow`.

import type { RobotsDirectives } from '../shared/store/index.js';

/** The most restrictive combination of directives (no argument: everything allowed). */
export function mergeRobots(...all: readonly RobotsDirectives[]): RobotsDirectives {
  let index = true;
  let follow = true;
  for (const d of all) {
    index &&= d.index;
    follow &&= d.follow;
  }
  return { index, follow };
}

/** Applies one list of directive tokens (already split and lower-cased) to `into`. */
function applyTokens(tokens: readonly string[], into: RobotsDirectives): void {
  let mode: 'on' | 'off' = 'on';
  for (let token of tokens) {
    if (token.startsWith('all=')) {
      mode = 'on';
      token = token.slice(4);
    } else if (token.startsWith('none=')) {
      mode = 'off';
      token = token.slice(5);
    }
    switch (token) {
      case 'noindex':
        into.index = false;
        break;
      case 'nofollow':
        into.follow = false;
        break;
      case 'none':
        into.index = false;
        into.follow = false;
        break;
      case 'index':
        if (mode === 'off') into.index = false;
        break;
      case 'follow':
        if (mode === 'off') into.follow = false;
        break;
      default:
        // `all`, `index`/`follow` in ALL= mode, and tokens Gleaner does not use: nothing to restrict.
        break;
    }
  }
}

function tokenize(content: string): string[] {
  return content
    .toLowerCase()
    .replace(/\s*=\s*/g, '=')
    .split(/[\s,]+/)
    .filter((t) => t !== '');
}

/** Directives of one META robots `content` attribute, e.g. `noindex, follow` or `ALL=INDEX,FOLLOW`. */
export function parseRobotsMeta(content: string): RobotsDirectives {
  const d = { index: true, follow: true };
  applyTokens(tokenize(content), d);
  return d;
}

/** Directives that take a value after a colon, so `name:` before them is not a user agent. */
const VALUED_DIRECTIVES = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

/**
 * Directives of the X-Robots-Tag header values that apply to `agent` (compared case-insensitively).
 * A value may name a user agent (`gleaner: noindex`, `otherbot: nofollow`); the named agent applies to the
 * directives after it up to the next named agent, as Google documents for combined headers. Directives
 * without an agent apply to every crawler.
 */
export function robotsFromHeader(values: readonly string[], agent: string): RobotsDirectives {
  const me = agent.toLowerCase();
  const d = { index: true, follow: true };
  for (const value of values) {
    let target = '*';
    const applying: string[] = [];
    for (const raw of value.split(',')) {
      let part = raw.trim().toLowerCase();
      const colon = part.indexOf(':');
      if (colon > 0) {
        const name = part.slice(0, colon).trim();
        if (!VALUED_DIRECTIVES.has(name) && /^[a-z0-9_.-]+$/.test(name)) {
          target = name;
          part = part.slice(colon + 1).trim();
        }
      }
      if (target === '*' || target === me) applying.push(...tokenize(part));
    }
    applyTokens(applying, d);
  }
  return d;
}
