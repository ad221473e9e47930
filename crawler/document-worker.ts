// A child process that reads one document and exits: a PDF's text (crawler/pdf-text.ts) or a Word
// document as HTML (mammoth). crawler/documents.ts sends the job, and ends the process when it takes
// longer than its deadline or holds more memory than its budget.

import { readDocument, type DocumentJob } from './document-read.js';

const send = process.send?.bind(process);
if (!send) throw new Error('document-worker.js runs as a child process started by crawler/documents.ts only');
// Ctrl-C in a terminal reaches the whole process group: the crawler decides when its readers end, so a
// page read while it stops is not stored as an error. A crawler that is gone (kill -9) ends its readers.
process.on('SIGINT', () => {});
process.once('disconnect', () => process.exit(0));
process.once('message', (job: DocumentJob) => {
  readDocument(job).then(
    (result) => send({ result }, undefined, undefined, () => process.disconnect()),
    (e: unknown) => send({ error: e instanceof Error ? e.message : String(e) }, undefined, undefined, () => process.disconnect()),
  );
});
