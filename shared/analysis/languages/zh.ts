// Chinese: Han runs are cut by Intl.Segmenter('zh'), also on pages of no CJK language (fallback).
// Han words are not stemmed; the Han bigrams (cjk.ts) cover the segmenter's cuts.

import { registerLanguage } from '../registry.js';

registerLanguage({ code: 'zh', segmentation: { locale: 'zh', fallback: true } });
