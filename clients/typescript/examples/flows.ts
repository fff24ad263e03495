/**
 * The common flows of docs/api.md ("Clients") and the README, with the TypeScript client. The docs quote this file
 * verbatim; test/clients/typescript.test.ts compiles it against the packed client and runs it against a started
 * service, in a folder holding q1.pdf and minutes.docx.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { PdfServiceClient, PdfServiceError } from '@pdfservice/client';

// Sign in: a session (login), or an API token (new PdfServiceClient({ baseUrl, token }))
const client = new PdfServiceClient({ baseUrl: process.env.PDF_URL ?? 'http://127.0.0.1:8080' });
const session = await client.login(process.env.PDF_USER ?? 'admin', process.env.PDF_PASSWORD ?? '');
console.log('signed in as', session.username);

// Upload a PDF, and a Word file that the service converts (done() follows the conversion's job, if it became one)
await client.createFolder('reports/2026');
const q1 = await client.upload('reports/2026/q1.pdf', await readFile('q1.pdf'));
console.log('q1.pdf:', q1.document?.pageCount, 'pages');
const minutes = await client.uploadForm('reports/2026', { name: 'minutes.docx', data: await readFile('minutes.docx') }, { namingMode: 1 });
console.log('minutes.pdf:', (await client.done(minutes)).pageCount, 'pages');

// Run an action as a background job and follow its events (Server-Sent Events) to the end
const stamp = await client.pageAction('reports/2026/q1.pdf', { TextStampAction: { text: 'APPROVED', x: 72, y: 72 } }, { prefer: 'respond-async' });
for await (const event of client.followJob(stamp.job!)) {
  console.log('job', event.event, event.job.state, `${event.job.progress.percent}%`);
}

// Download a document
await writeFile('q1-approved.pdf', await client.download('reports/2026/q1.pdf'));

// Errors are PdfServiceError: the problem document's code, status and detail (docs/errors.md)
try {
  await client.document('reports/2026/missing.pdf');
} catch (err) {
  if (!(err instanceof PdfServiceError)) throw err;
  console.log('error', err.status, err.code, err.detail);
}
