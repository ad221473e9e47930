// Russian: the Snowball stemmer (@orama/stemmers) on every Cyrillic word, on any page: the query side
// does not know a page's language, and of the Cyrillic languages we have only Russian.

import { stemmer } from '@orama/stemmers/russian';
import { registerLanguage } from '../registry.js';

registerLanguage({
  code: 'ru',
  stemming: { stem: stemmer, words: /\p{Script=Cyrillic}/u, anyPage: true },
  // The most frequent function words.
  stopwords:
    'и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот ' +
    'от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до вас нибудь ' +
    'опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их чем была сам',
});
