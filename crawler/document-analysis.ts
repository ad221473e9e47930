// The analysis of a fetched document that is not HTML or text (crawler/documents.ts): a PDF laid out
// by crawler/pdf.ts, a Word document converted to HTML and read by the HTML extractor like a page (its
// headings become headings and sections). Undefined for any other body: analyzeBody reads those.

import { analysisOf, analyzeBody, type BodyAnalysis, type BodyInput } from './analyze.js';
import { docxHtml, isDocx } from './documents.js';
import { documentLimits, extractedFromPdf, isPdf, pdfText, type PdfOptions } from './pdf.js';

export function isDocument(input: Pick<BodyInput, 'contentType' | 'body' | 'url'>): boolean {
  return isPdf(input.contentType, input.body) || isDocx(input.contentType, input.url);
}

/** Throws why the document could not be read; `truncated`: the body cap cut it (a cut PDF or zip cannot be read). */
/** `signal`: the crawl's stop, which ends the reader at once. */
export async function analyzeDocument(input: BodyInput, truncated: boolean, options: PdfOptions & { maxBodyBytes: number }, log: (msg: string, fields: Record<string, unknown>) => void = () => {}, signal?: AbortSignal): Promise<BodyAnalysis> {
  if (truncated) throw new Error(`the document is larger than the body cap (maxBodyBytes, ${options.maxBodyBytes} bytes)`);
  if (isPdf(input.contentType, input.body)) {
    const pdf = await pdfText(input.body, options, undefined, signal);
    if (pdf.pageCount > pdf.pages.length) log('PDF read in part', { url: input.url, pagesRead: pdf.pages.length, pages: pdf.pageCount });
    return analysisOf(extractedFromPdf(pdf, input.url), input);
  }
  const html = await docxHtml(input.body, documentLimits(options, signal));
  // The HTML is cut at the body cap, as a page from the network is: a zip inflates, and a 94 KB document
  // of one repeated paragraph became 48 MB of HTML, parsed here on the crawl's own thread for 3.4 s.
  const body = new TextEncoder().encode(html).subarray(0, options.maxBodyBytes);
  const analysis = analyzeBody({ ...input, body, contentType: 'text/html', contentTypeHeader: 'text/html; charset=utf-8' });
  const e = analysis.extracted;
  // A Word document has no <title>: its first heading, or its file name, stands in.
  const title = e.title || e.headings[0] || decodeURIComponent(new URL(input.url).pathname.split('/').pop() ?? '');
  return { ...analysis, extracted: { ...e, title } };
}
