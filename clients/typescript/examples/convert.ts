/**
 * One-shot conversions (`POST /convert`, docs/api.md "One-shot conversions") with the TypeScript client: nothing
 * stored. The docs quote this file verbatim; test/clients/typescript.test.ts compiles it against the packed client
 * and runs it against a started service, in a folder holding minutes.docx and scan.jpg.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { PdfServiceClient, PdfServiceError } from '@pdfservice/client';

const client = new PdfServiceClient({ baseUrl: process.env.PDF_URL ?? 'http://127.0.0.1:8080' });
await client.login(process.env.PDF_USER ?? 'admin', process.env.PDF_PASSWORD ?? '');

// DOCX -> PDF -> PDF/A-2b -> optimized, in one request; the result is the answer
const minutes = await client.convert({ name: 'minutes.docx', data: await readFile('minutes.docx') }, [
  { PDFAConvertAction: { profile: 'pdfa2b' } },
  { OptimizeAction: { profileName: 'lossless' } },
]);
await writeFile('minutes.pdf', minutes.data);
console.log('converted', minutes.name, minutes.mediaType);

// A scanned image -> PDF -> stamped, as a job: followed over SSE to its end, then its result downloaded
const scan = await client.convert({ name: 'scan.jpg', data: await readFile('scan.jpg') }, [
  { TextStampAction: { text: 'RECEIVED', x: 72, y: 72 } },
], { prefer: 'respond-async' });
await writeFile('scan.pdf', scan.data);
console.log('job', scan.job?.state, scan.name);

// A step the service refuses is a PdfServiceError, before any work
try {
  await client.convert({ name: 'minutes.docx', data: await readFile('minutes.docx') }, [{ OptimizeAction: { profileName: 'no-such-profile' } }]);
} catch (err) {
  if (!(err instanceof PdfServiceError)) throw err;
  console.log('error', err.status, err.code);
}
