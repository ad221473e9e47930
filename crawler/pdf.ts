// PDF documents as pages: their text read in a process of their own (crawler/documents.ts), with a
// deadline and a memory budget (a hostile or broken PDF costs that one page, never the crawl), then
// laid out as a page record: the Info Title (or the first line, or the file name) as title, the pages'
// text as body, and one section per PDF page (`url#page=N`, the fragment browsers' PDF viewers open)
// so a result shows and links the page its match is on.

import type { PageSection } from '../shared/store/index.js';
import { DEFAULT_EXTRACT_OPTIONS, type Extracted } from './extract.js';
import { readDocumentWithin, type DocumentLimits } from './documents.js';
import { parseDeclaredDate } from './page-date.js';
import type { PdfText } from './pdf-text.js';

export interface PdfOptions {
  /** A document (PDF, Word) not read within this long is an error page. */
  documentTimeoutMs: number;
  /** A document (PDF, Word) whose reading grows the process by more than this is an error page. */
  documentMemoryMb: number;
  /** Pages read at most; the rest of a longer PDF is left out (and said so in the log). */
  pdfMaxPages: number;
}

export const DEFAULT_PDF_OPTIONS: PdfOptions = { documentTimeoutMs: 20_000, documentMemoryMb: 512, pdfMaxPages: 500 };

/** A PDF by its media type, or by its magic bytes when the server only says "bytes". */
export function isPdf(contentType: string, body: Uint8Array): boolean {
  if (contentType === 'application/pdf') return true;
  if (contentType !== 'application/octet-stream' && contentType !== '') return false;
  return body.byteLength >= 5 && new TextDecoder().decode(body.subarray(0, 5)) === '%PDF-';
}

/** The limits a document is read within, from the crawl's options. */
export function documentLimits(options: Pick<PdfOptions, 'documentTimeoutMs' | 'documentMemoryMb'>, signal?: AbortSignal): DocumentLimits {
  return { timeoutMs: options.documentTimeoutMs, memoryMb: options.documentMemoryMb, ...(signal === undefined ? {} : { signal }) };
}

/** The PDF's text, or an Error saying why not (unreadable, over the deadline, out of memory). */
export async function pdfText(bytes: Uint8Array, options: PdfOptions, script?: URL, signal?: AbortSignal): Promise<PdfText> {
  const result = await readDocumentWithin({ kind: 'pdf', bytes, maxPages: options.pdfMaxPages }, 'PDF', documentLimits(options, signal), script);
  if (result.kind !== 'pdf') throw new Error('the PDF reader answered for another kind of document');
  return result.pdf;
}

/** A PDF's text laid out as an extracted page (title, text, one section per PDF page). Pure. */
export function extractedFromPdf(pdf: PdfText, url: string, maxTextChars: number = DEFAULT_EXTRACT_OPTIONS.maxTextChars): Extracted {
  let text = '';
  const sections: PageSection[] = [];
  pdf.pages.forEach((raw, i) => {
    const pageText = raw.replace(/\s+/g, ' ').trim();
    if (pageText === '' || text.length >= maxTextChars) return;
    if (text !== '') text += ' ';
    sections.push({ id: `page=${i + 1}`, heading: `p. ${i + 1}`, start: text.length });
    text += pageText;
  });
  text = text.slice(0, maxTextChars);
  const firstLine = pdf.pages.find((p) => p.trim() !== '')?.trim().split('\n')[0]?.trim().slice(0, 200) ?? '';
  const fileName = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  const date = parseDeclaredDate(pdf.date);
  return {
    title: pdf.title || firstLine || fileName,
    description: pdf.author === '' ? '' : `by ${pdf.author}`,
    ...(date !== undefined ? { date: new Date(date).toISOString() } : {}),
    headings: [],
    text,
    language: '',
    links: [],
    robots: { index: true, follow: true },
    ...(sections.length > 1 ? { sections } : {}),
  };
}
