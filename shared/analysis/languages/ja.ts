// Japanese: a CJK run with kana is Japanese on any page; on pages declared `ja` every CJK run is.

import { registerLanguage } from '../registry.js';

registerLanguage({ code: 'ja', segmentation: { locale: 'ja', runs: /[\p{Script=Hiragana}\p{Script=Katakana}]/u } });
