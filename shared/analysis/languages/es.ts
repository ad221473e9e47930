// Spanish: the Snowball stemmer (@orama/stemmers) on pages declared `es`. The searcher also tries the
// Spanish stem of each query word (queryVariant), so a Spanish page is found without `lang:es`.

import { stemmer } from '@orama/stemmers/spanish';
import { registerLanguage } from '../registry.js';

registerLanguage({
  code: 'es',
  stemming: { stem: stemmer },
  // The most frequent function words.
  stopwords:
    'de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya o este sí ' +
    'porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos ' +
    'uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él',
  queryVariant: true,
  // Its stems drop accents ("públicas" -> "public").
  stemIsPrefix: false,
});
