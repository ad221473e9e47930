// Korean: CJK runs on pages declared `ko` are cut by Intl.Segmenter('ko').

import { registerLanguage } from '../registry.js';

registerLanguage({ code: 'ko', segmentation: { locale: 'ko' } });
