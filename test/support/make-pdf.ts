// A small valid PDF for tests: one page per string (Helvetica, one line each), an Info dictionary with
// the title, a correct cross-reference table. Written by hand so no PDF tool is needed to make one.

import { createDeflate } from 'node:zlib';

export function makePdf(pages: readonly string[], info: { title?: string; author?: string; created?: string } = {}): Uint8Array {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((text, i) => {
    const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`);
    const stream = `BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET`;
    objects[pageIds[i]!] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`;
    objects[pageIds[i]! + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  const infoId = objects.length;
  const str = (s: string) => `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  objects[infoId] = `<< ${info.title !== undefined ? `/Title ${str(info.title)} ` : ''}${info.author !== undefined ? `/Author ${str(info.author)} ` : ''}${info.created !== undefined ? `/CreationDate ${str(info.created)} ` : ''}>>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/**
 * A one-page PDF whose content stream inflates to `inflatedMb` MB of text operators: a compression
 * bomb of a few hundred KB, as a hostile server would send. Deflated in chunks, so making it never
 * holds the inflated text.
 */
export async function makeInflatingPdf(inflatedMb: number): Promise<Uint8Array> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<void>((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const chunk = Buffer.from('(bomb words) Tj '.repeat(65_536)); // 1 MiB
  deflate.write('BT /F1 12 Tf 72 720 Td ');
  for (let i = 0; i < inflatedMb; i++) deflate.write(chunk);
  deflate.end('ET');
  await done;
  const stream = Buffer.concat(parts);
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>'),
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`), stream, Buffer.from('\nendstream')]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  const out: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = out[0]!.length;
  const offsets = objects.map((body, i) => {
    const at = length;
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    out.push(obj);
    length += obj.length;
    return at;
  });
  out.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`));
  out.push(Buffer.from(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(out));
}
