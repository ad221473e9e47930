// French: the Snowball stemmer (@orama/stemmers) on pages declared `fr`; the searcher also tries the
// French stem of each query word on French pages (queryVariant), as for Spanish. This file is the whole
// of French: index.ts loads every file of languages/, so nothing else names the language.

import { stemmer } from '@orama/stemmers/french';
import { registerLanguage } from '../registry.js';

registerLanguage({
  code: 'fr',
  stemming: { stem: stemmer },
  // The most frequent function words, less those that are English words too ("son", "pour", "pas",
  // "par") and single letters ("c", "l", "d"): the stopword list is one for all languages, since a
  // query does not say its language, and these must keep scoring in English queries.
  stopwords:
    'au aux avec ce ces dans de des du elle en et eux il ils je la le les leur lui ma mais me même mes moi ' +
    'mon ne nos notre nous on ou où qu que qui sa se ses sur ta te tes toi tu un une vos votre vous à est ' +
    'sont été être',
  queryVariant: true,
  // Its stems drop accents and endings ("bibliothèques" -> "bibliothequ").
  stemIsPrefix: false,
});
