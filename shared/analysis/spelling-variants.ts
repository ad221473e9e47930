// British and American spellings of one English word: "licence" and "license", "colour" and "color",
// "initialise" and "initialize", "centre" and "center", "catalogue" and "catalog". A site is written in
// one of them and its reader types the other: "license" on the libxslt docs ("released under the MIT
// Licence") found a tutorial that says "license" twice, never the page that names the licence. The
// stemmer does not join them ("licens", "licenc"), so the searcher also looks for the other spelling of
// a query word (web/search/compile.ts spellingVariants), below its own weight so a page written as
// typed ranks first, as accent folds do. The index is untouched: each page keeps the words it writes.
//
// Families of word roots, not a rule over every word: "-ise" is also American in "exercise",
// "advertise", "surprise", "-our" ends "four" and "your", "-re" ends "more" and "genre". Each family
// lists roots whose two spellings are both in use and mean one thing, with the endings their
// inflections take (VarCon, the variant lists behind GNU Aspell's en_US and en_GB dictionaries, lists
// the same pairs). Pure.

/** A family: British root + `british` + ending is American root + `american` + the same ending. */
interface Family {
  roots: readonly string[];
  british: string;
  american: string;
  endings: readonly string[];
}

const FAMILIES: readonly Family[] = [
  {
    // colour / color, behavioural / behavioral, favourite / favorite, neighbourhood / neighborhood
    roots: ['arb', 'ard', 'arm', 'behavi', 'cand', 'clam', 'col', 'demean', 'endeav', 'fav', 'flav', 'harb', 'hon', 'hum', 'lab', 'neighb', 'od', 'parl', 'rig', 'rum', 'sav', 'splend', 'tum', 'val', 'vap', 'vig'],
    british: 'our',
    american: 'or',
    endings: ['', 's', 'ed', 'ing', 'al', 'ally', 'able', 'ably', 'ful', 'less', 'ite', 'ites', 'hood', 'hoods', 'y', 'er', 'ers', 'ist', 'ists'],
  },
  {
    // initialise / initialize, organisation / organization
    roots: [
      'apolog', 'author', 'capital', 'categor', 'central', 'character', 'civil', 'critic', 'custom', 'decentral', 'denormal',
      'deserial', 'desynchron', 'digit', 'emphas', 'equal', 'final', 'formal', 'general', 'global', 'harmon', 'ideal',
      'industrial', 'initial', 'internal', 'international', 'legal', 'linear', 'local', 'maxim', 'memor', 'minim',
      'mobil', 'modern', 'monet', 'normal', 'optim', 'organ', 'parameter', 'parametr', 'personal', 'polar', 'priorit',
      'random', 'rational', 'real', 'recogn', 'reorgan', 'sanit', 'serial', 'special', 'stabil', 'standard', 'steril',
      'summar', 'symbol', 'sympath', 'synchron', 'synthes', 'theor', 'token', 'unauthor', 'util', 'virtual', 'visual',
    ],
    british: 'is',
    american: 'iz',
    endings: ['e', 'es', 'ed', 'ing', 'er', 'ers', 'ation', 'ations', 'able'],
  },
  {
    // analyse / analyze
    roots: ['anal', 'catal', 'dial', 'paral'],
    british: 'ys',
    american: 'yz',
    // Not "analyses": far more often the plural of "analysis" than a verb.
    endings: ['e', 'ed', 'ing', 'er', 'ers'],
  },
  {
    // centre / center, kilometre / kilometer
    roots: ['calib', 'cent', 'centimet', 'fib', 'kilomet', 'lit', 'lust', 'meag', 'met', 'millimet', 'nanomet', 'sab', 'somb', 'spect', 'theat'],
    british: 're',
    american: 'er',
    endings: ['', 's'],
  },
  {
    // catalogue / catalog
    roots: ['anal', 'catal', 'dial', 'epil', 'monol', 'prol'],
    british: 'ogue',
    american: 'og',
    endings: ['', 's'],
  },
  {
    // licence / license (the noun), defence / defense
    roots: ['def', 'lic', 'off', 'pret'],
    british: 'ence',
    american: 'ense',
    endings: ['', 's', 'less'],
  },
  {
    // travelled / traveled, marshalling / marshaling (the stemmer joins most already, not "dialled")
    roots: ['cancel', 'channel', 'counsel', 'dial', 'duel', 'fuel', 'funnel', 'label', 'level', 'marshal', 'marvel', 'model', 'panel', 'pedal', 'quarrel', 'rival', 'signal', 'total', 'travel', 'tunnel', 'unravel'],
    british: 'l',
    american: '',
    endings: ['ed', 'ing', 'er', 'ers'],
  },
];

/** Words whose two spellings differ otherwise (British first). */
const PAIRS: readonly (readonly [string, string])[] = [
  ['acknowledgement', 'acknowledgment'],
  ['acknowledgements', 'acknowledgments'],
  ['ageing', 'aging'],
  ['aluminium', 'aluminum'],
  ['artefact', 'artifact'],
  ['artefacts', 'artifacts'],
  ['catalogued', 'cataloged'],
  ['cataloguing', 'cataloging'],
  ['centred', 'centered'],
  ['centring', 'centering'],
  ['encyclopaedia', 'encyclopedia'],
  ['enrol', 'enroll'],
  ['enrolment', 'enrollment'],
  ['focussed', 'focused'],
  ['focussing', 'focusing'],
  ['fulfil', 'fulfill'],
  ['fulfilment', 'fulfillment'],
  ['fulfils', 'fulfills'],
  ['grey', 'gray'],
  ['greyed', 'grayed'],
  ['greys', 'grays'],
  ['instalment', 'installment'],
  ['jewellery', 'jewelry'],
  ['judgement', 'judgment'],
  ['judgements', 'judgments'],
  ['manoeuvre', 'maneuver'],
  ['mould', 'mold'],
  ['plough', 'plow'],
  ['sceptic', 'skeptic'],
  ['sceptical', 'skeptical'],
  ['skilful', 'skillful'],
  ['wilful', 'willful'],
];

let table: Map<string, string[]> | undefined;

function build(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const add = (a: string, b: string) => {
    if (a === b) return;
    for (const [from, to] of [[a, b], [b, a]] as const) {
      const known = map.get(from);
      if (known === undefined) map.set(from, [to]);
      else if (!known.includes(to)) known.push(to);
    }
  };
  for (const f of FAMILIES) {
    for (const root of f.roots) for (const ending of f.endings) add(root + f.british + ending, root + f.american + ending);
  }
  for (const [british, american] of PAIRS) add(british, american);
  return map;
}

/** The other spellings of an English word, lower case ("licence": ["license"]); none for most words. */
export function spellingVariants(word: string): readonly string[] {
  table ??= build();
  return table.get(word) ?? [];
}
