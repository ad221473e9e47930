// What a document reader does (crawler/document-worker.ts), also run in the calling thread when the
// compiled worker is not there (tests over the TypeScript sources): a PDF's text by pdf.js, a Word
// document (.docx) as HTML by mammoth, which the HTML extractor then reads like any page. Each reader
// is loaded only for its kind: a process reading a PDF never loads mammoth.

import type { PdfText } from './pdf-text.js';

export type DocumentJob = { kind: 'pdf'; bytes: Uint8Array; maxPages: number } | { kind: 'docx'; bytes: Uint8Array };
export type DocumentResult = { kind: 'pdf'; pdf: PdfText } | { kind: 'docx'; html: string };

export async function readDocument(job: DocumentJob): Promise<DocumentResult> {
  if (job.kind === 'pdf') {
    const { readPdfText } = await import('./pdf-text.js');
    return { kind: 'pdf', pdf: await readPdfText(job.bytes, job.maxPages) };
  }
  const { default: mammoth } = await import('mammoth');
  const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength) });
  return { kind: 'docx', html: value };
}
