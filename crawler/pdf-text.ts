// The text of a PDF, page by page, with its title and author, read by pdf.js (Mozilla's PDF reader, the
// one in Firefox: `pdfjs-dist`, legacy build for Node). Scripting, eval and fonts are off: only text
// is wanted. Runs in a process of its own (crawler/documents.ts) so a PDF that never ends can be abandoned.

import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfText {
  /** The Info dictionary's Title, '' when none. */
  title: string;
  author: string;
  /** The Info dictionary's CreationDate, else its ModDate, as written (`D:20240305120000+01'00'`); '' when none. */
  date: string;
  /** Text per page read, in order (at most maxPages). */
  pages: string[];
  /** Pages the document has, read or not. */
  pageCount: number;
}

export async function readPdfText(bytes: Uint8Array, maxPages: number): Promise<PdfText> {
  // A copy, as a plain Uint8Array: pdf.js refuses a Buffer and may take the bytes it is given.
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, enableXfa: false, verbosity: 0 }).promise;
  try {
    const info = (await doc.getMetadata()).info as Record<string, unknown>;
    const field = (name: string) => {
      const value = info[name];
      return typeof value === 'string' ? value.trim() : '';
    };
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(text);
      page.cleanup();
    }
    return { title: field('Title'), author: field('Author'), date: field('CreationDate') || field('ModDate'), pages, pageCount: doc.numPages };
  } finally {
    await doc.destroy();
  }
}
