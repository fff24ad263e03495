/**
 * The TypeScript beside the shell examples of docs/getting-started.md, jobs.md, ocr.md, pdfa.md, pages.md,
 * signing.md, stamps.md, outline.md, metadata.md, compare.md, page-numbers.md, page-layout.md, merge-split.md, html.md, accessibility.md, export.md and webhooks.md, and the principal calls of the pages that show none (annotations.md, forms.md,
 * redaction.md, permissions.md, optimize.md, pipelines.md, pages-edit.md and office.md, after the stamp). The pages quote this file verbatim;
 * test/clients/typescript.test.ts compiles it against the packed client and runs it against a started service, in a
 * folder holding q1.pdf, letter.png, minutes.docx, claim.pdf (a form) and jane.p12.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { PdfServiceClient } from '@pdfservice/client';

const client = new PdfServiceClient({ baseUrl: process.env.PDF_URL ?? 'http://127.0.0.1:8080' });
await client.login(process.env.PDF_USER ?? 'admin', process.env.PDF_PASSWORD ?? '');
// What the pages' set-up blocks store: a report, a scanned page, a contract with an empty signature field
for (const folder of ['reports/2026', 'scans', 'archive', 'contracts', 'start']) await client.createFolder(folder);
await client.upload('reports/2026/q1.pdf', await readFile('q1.pdf'));
await client.upload('scans/letter.pdf', await readFile('letter.png'), { fileName: 'letter.png' });
await client.upload('archive/contract.pdf', await readFile('q1.pdf'));
await client.upload('contracts/c1.pdf', await readFile('q1.pdf'));
await client.upload('reports/2026/annex.pdf', await readFile('q1.pdf'));
await client.createFolder('forms');
await client.upload('forms/claim.pdf', await readFile('claim.pdf'));
await client.request('PUT', '/documents/contracts/c1.pdf/fields/signature-fields/approval', {
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ widget: [{ pageIndex: 0, rectangle: { x: 100, y: 100, width: 200, height: 50 } }] }),
});

// The scan converted to PDF and OCR'd in one request (nothing stored), stored, signed in a new field, downloaded
const letter = await client.convert({ name: 'letter.png', data: await readFile('letter.png') }, [{ OCRAction: { language: 'eng' } }]);
await client.upload('start/letter.pdf', letter.data, { type: 'application/pdf' });
await client.sign('start/letter.pdf', 'approval', await readFile('jane.p12'), { keystorePassword: 'secret', signReason: 'Approved', createField: true });
await writeFile('letter.pdf', await client.download('start/letter.pdf'));

// An action started as a job (202), its events followed over Server-Sent Events to the end
const flatten = await client.action('reports/2026/q1.pdf', { FlattenAnnotationsAction: { savePath: 'archive/q1-flat.pdf' } }, { prefer: 'respond-async' });
for await (const event of client.followJob(flatten.job!)) {
  console.log('job', event.event, event.job.state);
}

// OCR: a job by default; prefer 'wait=300' waits for its end (done() follows the job if it took longer)
const ocr = await client.pageAction('scans/letter.pdf', { OCRAction: { language: 'eng', savePath: 'scans/letter-ocr.pdf' } }, { prefer: 'wait=300' });
console.log('OCR:', (await client.done(ocr)).path);
await writeFile('letter-ocr.pdf', await client.download('scans/letter-ocr.pdf'));

// Is it PDF/A-2b? veraPDF's verdict, with every failed rule; then a PDF/A-2b copy
const { data: verdict } = await client.api.GET('/pdfservice/v1/documents/{filePath}.pdf/preflight-results', {
  params: { path: { filePath: 'archive/contract' }, query: { profile: 'pdfa2b' } },
});
console.log('PDF/A-2b:', verdict?.compliant);
const pdfa = await client.action('archive/contract.pdf', { PDFAConvertAction: { profile: 'pdfa2b', savePath: 'archive/contract-pdfa.pdf' } }, { prefer: 'wait=120' });
console.log('PDF/A copy:', (await client.done(pdfa)).path);

// The pages, the document's text (as pdftotext gives it), a page drawn as a PNG
const { data: pages } = await client.api.GET('/pdfservice/v1/documents/{filePath}.pdf/pages', { params: { path: { filePath: 'reports/2026/q1' } } });
console.log('pages:', pages?.pages.length);
const text = await client.request('GET', '/documents/reports/2026/q1.pdf/text', { headers: { Accept: 'text/plain' } });
await writeFile('q1.txt', await text.text());
const image = await client.request('GET', '/documents/reports/2026/q1.pdf/pages/0/image', { query: { dpi: 150 } });
await writeFile('page1.png', new Uint8Array(await image.arrayBuffer()));

// Sign the field "approval" with a PKCS#12 key store
const field = await client.sign('contracts/c1.pdf', 'approval', await readFile('jane.p12'), { keystorePassword: 'secret', signReason: 'Approved' });
console.log('signed by', field.signature?.signerCommonName);

// A text stamp on every page (ImageStampAction takes its image in a multipart body: docs/stamps.md)
await client.pageAction('reports/2026/q1.pdf', {
  TextStampAction: { text: 'CONFIDENTIAL', x: 150, y: 300, fontSize: 60, color: 16711680, rotation: 45, transparency: 0.6 },
});
await writeFile('q1-stamped.pdf', await client.download('reports/2026/q1.pdf'));

// Annotations imported from XFDF (a note named note-1 on the first page), then listed by subtype
const xfdf = `<?xml version="1.0" encoding="UTF-8"?>
<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>
  <text name="note-1" page="0" rect="500,700,520,720" title="Jane Doe"><contents>Check the totals</contents></text>
</annots></xfdf>`;
await client.request('POST', '/documents/reports/2026/q1.pdf/annotations/content', { headers: { 'Content-Type': 'application/vnd.adobe.xfdf' }, body: xfdf });
const { data: notes } = await client.api.GET('/pdfservice/v1/documents/{filePath}.pdf/annotations', {
  params: { path: { filePath: 'reports/2026/q1' }, query: { subtype: 'text' } },
});
console.log('notes:', notes?.annotations.map((a) => a.name).join(', '));

// Redaction: mark every match of a term, then apply: the text is removed, verified, and reported
const marked = await client.request('POST', '/documents/reports/2026/annex.pdf/annotations/redaction', {
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ searchText: 'page 2', overlayText: '[redacted]' }),
});
console.log('marked:', ((await marked.json()) as { count: number }).count);
await client.action('reports/2026/annex.pdf', { ApplyRedactionsAction: {} });
await writeFile('annex-redacted.pdf', await client.download('reports/2026/annex.pdf'));

// Protect a document with an open password (AES-256), then read it with that password
await client.request('PUT', '/documents/archive/contract.pdf/permissions/password-permissions', {
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ openPassword: 'open-me', permissionsPassword: 'owner-only', extractTextAllowed: false }),
});
console.log('encrypted:', (await client.document('archive/contract.pdf', { password: 'open-me' })).encrypted);

// Bookmarks: replace the outline with a chapter and a section below it, then read it back
await client.request('PUT', '/documents/reports/2026/q1.pdf/outline', {
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ items: [{ title: 'Summary', open: true, destination: { pageIndex: 0 }, children: [{ title: 'Figures', destination: { pageIndex: 1, fit: 'FitH', top: 500 } }] }] }),
});
const outline = (await (await client.request('GET', '/documents/reports/2026/q1.pdf/outline')).json()) as { itemCount: number };
console.log('bookmarks:', outline.itemCount);

// Metadata: title and author written into the Info dictionary and the XMP packet together, then read back
await client.request('PATCH', '/documents/reports/2026/q1.pdf/metadata', {
  headers: { 'Content-Type': 'application/merge-patch+json' },
  body: JSON.stringify({ title: 'Quarterly report', author: 'Zoë Brontë' }),
});
const metadata = (await (await client.request('GET', '/documents/reports/2026/q1.pdf/metadata')).json()) as { title: string };
console.log('title:', metadata.title);

// Attachments: a CSV embedded in the document (its media type and description in the query), then listed and read back
await client.request('PUT', '/documents/reports/2026/q1.pdf/attachments/figures.csv', {
  headers: { 'Content-Type': 'application/octet-stream' },
  query: { mediaType: 'text/csv', description: 'Quarterly figures' },
  body: 'quarter;revenue\nQ1;1200\n',
});
const attached = (await (await client.request('GET', '/documents/reports/2026/q1.pdf/attachments')).json()) as { attachments: { name: string }[] };
const figures = await (await client.request('GET', '/documents/reports/2026/q1.pdf/attachments/figures.csv')).text();
console.log('attachments:', attached.attachments.map((a) => a.name).join(', '), figures.split('\n')[1]);

// Sanitize into a copy to hand out: scripts, embedded files, outside links and metadata removed, the result re-read and verified
const sanitized = await client.action('reports/2026/q1.pdf', { SanitizeAction: { metadata: true, savePath: 'public/q1.pdf' } });
console.log('sanitized:', (await client.done(sanitized)).path);

// Compare: the report against the sanitized copy (pages paired by content; words and pixels diffed)
const compared = (await (await client.request('POST', '/documents/reports/2026/q1.pdf/compare', {
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ with: { filePath: 'public/q1.pdf' } }),
})).json()) as { summary: { changedPages: number; insertedPages: number; deletedPages: number } };
console.log('compared: changed', compared.summary.changedPages, 'inserted', compared.summary.insertedPages, 'deleted', compared.summary.deletedPages);

// Optimize by a profile into a copy; the answer's report gives the sizes (never larger: nothing written then)
const optimized = await client.action('reports/2026/q1.pdf', { OptimizeAction: { profileName: 'ebook', savePath: 'small/q1.pdf' } });
console.log('optimized:', (await client.done(optimized)).path);

// A pipeline saved (every PUT a new version), then run on the report into a copy: all its steps, one write
await client.request('PUT', '/pipelines/house-style', {
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ steps: [{ TextStampAction: { text: 'CONFIDENTIAL', x: 72, y: 40 } }, { PageNumbersAction: { format: 'Page {n} of {total}' } }] }),
});
const piped = await client.action('reports/2026/q1.pdf', { PipelineAction: { name: 'house-style', savePath: 'archive/q1-house.pdf' } });
console.log('pipeline:', (await client.done(piped)).path);

// A watched folder bound to that pipeline: a document arriving in it runs once, as a job, its output in another folder
await client.createFolder('watched-in');
await client.request('PUT', '/watched-folders/inbox', {
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ folder: 'watched-in', pipeline: { name: 'house-style' }, target: 'watched-out' }),
});
await client.upload('watched-in/q1.pdf', await readFile('q1.pdf'));
let watched = { runs: [] as { state: string }[] };
for (let i = 0; i < 120 && !['succeeded', 'failed'].includes(watched.runs[0]?.state ?? ''); i++) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  watched = (await (await client.request('GET', '/watched-folders/inbox')).json()) as typeof watched;
}
console.log('watched folder run:', watched.runs[0]?.state);

// Page structure: pages of another stored document inserted after the first, one page turned, two extracted
await client.pageAction('reports/2026/q1.pdf', { InsertUploadedPagesAction: { appendFilePath: 'reports/2026/annex.pdf', pageRange: '1-2', pageIndex: 1 } });
await client.pageAction('reports/2026/q1.pdf', { RotatePagesAction: { pageRange: '2', rotation: 90 } });
const summary = await client.pageAction('reports/2026/q1.pdf', { ExtractPagesAction: { pageRange: '1-2', savePath: 'reports/2026/summary.pdf' } });
console.log('summary:', summary.document?.pageCount, 'pages');

// Split: the two-page summary into single pages in a folder of their own, one answer listing them
const parts = (await (await client.request('POST', '/documents/reports/2026/summary.pdf/pages', {
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ SplitDocumentAction: { everyPages: 1, folder: 'reports/2026/summary-pages' } }),
})).json()) as { documents: { path: string }[] };
console.log('split:', parts.documents.map((d) => d.path).join(' '));

// Page numbers at the bottom centre, then the blank pages listed (dryRun: nothing removed)
await client.pageAction('reports/2026/q1.pdf', { PageNumbersAction: { format: 'Page {n} of {total}', fontSize: 9 } });
const blank = await client.pageAction('reports/2026/q1.pdf', { RemoveBlankPagesAction: { dryRun: true } });
console.log('blank pages:', (blank.document as { report?: { removed: number[] } } | undefined)?.report?.removed);
// Bates numbers across a set: the summary, then its two single pages, one sequence (each written in place, all or nothing)
const set = await client.pageAction('reports/2026/summary.pdf', { PageNumbersAction: { prefix: 'ACME-', digits: 6, position: 'bottom-right',
  documents: [{ filePath: 'reports/2026/summary-pages/summary-1.pdf' }, { filePath: 'reports/2026/summary-pages/summary-2.pdf' }] } });
const bates = (set.document as { report?: { first: string; last: string; lastNumber: number } } | undefined)?.report;
console.log('bates:', bates?.first, 'to', bates?.last, 'next set from', (bates?.lastNumber ?? 0) + 1);
await writeFile('summary-2-bates.pdf', await client.download('reports/2026/summary-pages/summary-2.pdf'));

// Page layout: four pages to an A4 sheet into a new document, and a booklet of the report
const handout = await client.pageAction('reports/2026/q1.pdf', { NUpAction: { perSheet: 4, paperSize: 'A4', border: true, savePath: 'reports/2026/q1-4up.pdf' } });
console.log('handout:', handout.document?.pageCount, 'sheets');
await client.pageAction('reports/2026/q1.pdf', { BookletAction: { savePath: 'reports/2026/q1-booklet.pdf' } });

// Merge: this report, then the annex's first two pages, into a new document with a table of contents in front
const merged = await client.action('reports/2026/q1.pdf', { MergeDocumentsAction: { sources: [{ filePath: 'reports/2026/annex.pdf', pageRange: '1-2' }], tableOfContents: true, savePath: 'reports/2026/q1-with-annex.pdf' } });
console.log('merged:', merged.document?.pageCount, 'pages');

// A Word file converted on upload with an option: PDF/A-2b written by LibreOffice, checked by veraPDF; wait for its job
const minutes = await client.upload('reports/2026/minutes.pdf', await readFile('minutes.docx'), { fileName: 'minutes.docx', prefer: 'wait=120', query: { pdfa: 'pdfa2b' } });
await writeFile('minutes-pdfa.pdf', await client.download((await client.done(minutes)).path));

// Form fields: list them, set one, export the field data as XFDF, flatten into a copy
const { data: form } = await client.api.GET('/pdfservice/v1/documents/{filePath}.pdf/fields', { params: { path: { filePath: 'forms/claim' } } });
console.log('fields:', form?.fields.length);
await client.request('PUT', '/documents/forms/claim.pdf/fields/person.name', { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ value: 'Jane Doe' }) });
const data = await client.request('GET', '/documents/forms/claim.pdf/fields/content', { query: { exportEmptyFields: true } });
await writeFile('claim.xfdf', await data.text());
await client.action('forms/claim.pdf', { FlattenFieldsAction: { savePath: 'forms/claim-flat.pdf' } });

// Versions: every write kept one; list the form's, read the first (the upload) and restore it as a new version
const { data: history } = await client.api.GET('/pdfservice/v1/documents/{filePath}.pdf/versions', { params: { path: { filePath: 'forms/claim' } } });
const first = history!.versions[history!.versions.length - 1]!;
const old = await client.request('GET', '/documents/forms/claim.pdf', { query: { versionId: first.id } });
await writeFile('claim-first.pdf', new Uint8Array(await old.arrayBuffer()));
await client.request('POST', `/documents/forms/claim.pdf/versions/${first.id}/restore`);
console.log('versions:', history!.total, 'restored:', first.operation);

// HTML and Markdown printed by the service's offline Chromium: a tagged A4 PDF titled by its first heading
const markdown = '# Quarterly report\n\n| Region | Revenue |\n|---|---:|\n| North | 1,200 |\n';
const printed = await client.upload('reports/2026/report.pdf', new TextEncoder().encode(markdown), { type: 'text/markdown', query: { language: 'en' } });
const page = '<!DOCTYPE html><html lang="en"><head><title>Invoice 42</title></head><body><h1>Invoice 42</h1><p>Total due: 120 EUR</p></body></html>';
await client.upload('reports/2026/invoice.pdf', new TextEncoder().encode(page), { type: 'text/html', query: { paperSize: 'A5', pdfa: 'pdfa2b' } });
console.log('printed', (await client.done(printed)).path);

// Accessibility: the printed report checked against PDF/UA-1 by veraPDF (docs/accessibility.md)
const ua = await client.request('GET', '/documents/reports/2026/report.pdf/preflight-results', { query: { profile: 'pdfua1' } });
console.log('PDF/UA-1:', ((await ua.json()) as { compliant: boolean }).compliant);

// Export: the report read back as Markdown (docs/export.md); format=json and format=html work alike
const exported = await client.request('GET', '/documents/reports/2026/report.pdf/export', { query: { format: 'markdown' } });
console.log('exported:', (await exported.text()).split('\n')[0]);

// The secret this user's webhooks are signed with (docs/webhooks.md), then a new one in its place
const me = process.env.PDF_USER ?? 'admin';
const webhookSecret = ((await (await client.request('GET', `/users/${me}/webhook-secret`)).json()) as { secret: string }).secret;
const rotatedSecret = ((await (await client.request('POST', `/users/${me}/webhook-secret`)).json()) as { secret: string }).secret;
console.log('webhook secret rotated:', webhookSecret !== rotatedSecret ? 'yes' : 'no');
