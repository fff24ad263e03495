/**
 * OptimizeAction on scans (issue 21's large scanned document; the 300 MB run itself is a bench row,
 * bench/optimize-large.ts): images whose pixels repeat in distinct objects, and a document above the job threshold
 * optimized as a job by default, with progress per image.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { deflateSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { call, jobEnded, putPdf, storedBytes } from '../helpers/http.js';
import { photoSamples } from '../helpers/optimize-fixtures.js';
import { pdftotext, qpdfCheck, renderDifference, serializePdf, withTempFile } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

// Documents above 1 MB are long by nature here, so the second test's document goes to a job without asking.
const server = serverForSuite({ env: { PDFSERVICE_JOB_ASYNC_BYTES: String(1024 * 1024) } });

/**
 * One page per image, each image 600x600 drawn 2 inches wide (300 dpi) with a line of text; images given as
 * (samples, zlib level): the same samples at two levels are the same pixels in distinct streams, as a scan's
 * blank pages or a logo embedded once per page are.
 */
function pagesOf(images: { samples: Buffer; level: number; components: 1 | 3 }[]): Buffer {
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: number[] = [];
  images.forEach(({ samples, level, components }, i) => {
    const data = deflateSync(samples, { level });
    objects.push(`<< /Type /XObject /Subtype /Image /Width 600 /Height 600 /ColorSpace /${components === 3 ? 'DeviceRGB' : 'DeviceGray'} /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream`);
    const content = `q 144 0 0 144 72 500 cm /Im0 Do Q BT /F1 12 Tf 72 450 Td (Scanned page ${i + 1}) Tj ET`;
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Im0 ${objects.length - 1} 0 R >> >> /Contents ${objects.length} 0 R >>`);
    kids.push(objects.length);
  });
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  return serializePdf(objects, '/Root 1 0 R');
}

/** Each image poppler lists: page, size, colour, encoding and object number. */
function images(bytes: Buffer): { page: number; size: string; color: string; enc: string; object: number }[] {
  const out = withTempFile(bytes, (file) => execFileSync('pdfimages', ['-list', file], { encoding: 'latin1' }));
  return out.split('\n').slice(2).filter((l) => l.trim()).map((line) => {
    const f = line.trim().split(/\s+/);
    return { page: Number(f[0]), size: `${f[3]}x${f[4]}`, color: f[5]!, enc: f[8]!, object: Number(f[10]) };
  });
}

const words = (bytes: Buffer) => pdftotext(bytes).split(/\s+/).filter(Boolean);

describe('OptimizeAction on scans', () => {
  test('images with the same pixels in distinct objects are each rewritten, not only the first', async () => {
    const color = photoSamples(600, 600, 3, 7);
    const gray = photoSamples(600, 600, 1, 8);
    const source = pagesOf([
      { samples: color, level: 1, components: 3 },
      { samples: color, level: 9, components: 3 },
      { samples: gray, level: 1, components: 1 },
      { samples: gray, level: 9, components: 1 },
      { samples: color, level: 6, components: 3 },
    ]);
    assert.notDeepEqual(deflateSync(color, { level: 1 }), deflateSync(color, { level: 9 }), 'distinct streams, or the save would merge them anyway');
    await putPdf(server, 'scale/repeated.pdf', source);
    const reply = await call(server, 'POST', '/documents/scale/repeated.pdf', { body: { OptimizeAction: { profileName: 'ebook', savePath: 'scale/repeated-ebook.pdf' } }, headers: { prefer: 'wait=120' } });
    assert.equal(reply.status, 201, reply.text);
    const report = reply.json().report;
    assert.deepEqual(report.notes, [], 'no image was left as it was');
    assert.equal(report.images.examined, 5);
    assert.equal(report.images.changed, 5);
    assert.equal(report.images.downsampled, 5);
    const written = await storedBytes(server, 'scale/repeated-ebook.pdf');
    assert.ok(qpdfCheck(written).ok, qpdfCheck(written).output);
    const listed = images(written);
    assert.deepEqual(listed.map((i) => `${i.page} ${i.size} ${i.color}`), ['1 300x300 rgb', '2 300x300 rgb', '3 300x300 gray', '4 300x300 gray', '5 300x300 rgb'], '300 dpi to 150 on every page');
    assert.deepEqual(words(written), words(source));
    for (let page = 1; page <= 5; page++) {
      const share = renderDifference(source, written, page, 72);
      assert.ok(share < 0.02, `page ${page}: ${share} of the pixels differ`);
    }
  });

  test('a document above the job threshold is optimized as a job without asking, with progress per image', async () => {
    const pages = Array.from({ length: 8 }, (_, i) => ({ samples: photoSamples(600, 600, (i % 2 ? 1 : 3) as 1 | 3, 100 + i), level: 6, components: (i % 2 ? 1 : 3) as 1 | 3 }));
    const source = pagesOf(pages);
    assert.ok(source.length > 1024 * 1024, `${source.length} bytes: above the threshold`);
    await putPdf(server, 'scale/scan.pdf', source);
    const reply = await call(server, 'POST', '/documents/scale/scan.pdf', { body: { OptimizeAction: { profileName: 'ebook', savePath: 'scale/scan-ebook.pdf' } } });
    assert.equal(reply.status, 202, reply.text);
    const done = await jobEnded(server, reply.json().id, { seconds: 120 });
    assert.equal(done.state, 'succeeded', JSON.stringify(done));
    assert.equal(done.result.status, 201);
    assert.deepEqual({ done: done.progress.done, total: done.progress.total, unit: done.progress.unit, percent: done.progress.percent }, { done: 8, total: 8, unit: 'images', percent: 100 });
    const written = await storedBytes(server, 'scale/scan-ebook.pdf');
    assert.ok(written.length < source.length / 4, `${written.length} of ${source.length} bytes`);
    assert.ok(qpdfCheck(written).ok, qpdfCheck(written).output);
    assert.ok(images(written).every((i) => i.size === '300x300'), JSON.stringify(images(written)));
    assert.deepEqual(words(written), words(source));
  });
});
