/**
 * A new user's first session, written against the client generated from the
 * served OpenAPI description (openapi-typescript + openapi-fetch): no casts, so
 * `tsc --strict` checks every path, parameter and body against the description.
 * Compiled and run by test/api/openapi-client.test.ts; prints what it saw as JSON.
 */
import { readFile } from 'node:fs/promises';
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const check = (step: string, response: Response, error: unknown): void => {
  if (!response.ok) throw new Error(`${step}: ${response.status} ${JSON.stringify(error)}`);
};

const client = createClient<paths>({ baseUrl: env('SERVICE_URL') });

const login = await client.POST('/pdfservice/v1/sessions', { body: { username: env('SERVICE_USER'), password: env('SERVICE_PASSWORD') } });
check('log in', login.response, login.error);
const cookie = (login.response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
client.use({
  onRequest({ request }) {
    request.headers.set('Cookie', cookie);
    return request;
  },
});

const folderPath = 'client-walkthrough';
const folder = await client.PUT('/pdfservice/v1/documents/{folderPath}', { params: { path: { folderPath } } });
check('create a folder', folder.response, folder.error);

// The document path holds a folder: the client sends it as one parameter, "/" encoded as %2F.
const filePath = `${folderPath}/report`;
const document = { params: { path: { filePath } } };
const pdf = new Blob([await readFile(env('PDF_FILE'))], { type: 'application/pdf' });
const upload = await client.PUT('/pdfservice/v1/documents/{filePath}.pdf', {
  ...document,
  body: pdf,
  bodySerializer: (body) => body,
  headers: { 'Content-Type': 'application/pdf' },
});
check('upload a PDF', upload.response, upload.error);
// An upload or action may answer 202 with a background job (docs/jobs.md); a PDF upload and this stamp, sent without Prefer, answer
// the document. The answer's type says both, so the script tells them apart by a field only the document model has.
const uploaded = upload.data && 'pageCount' in upload.data ? upload.data : undefined;

const annotations = await client.GET('/pdfservice/v1/documents/{filePath}.pdf/annotations', document);
check('list annotations', annotations.response, annotations.error);

const stamp = await client.POST('/pdfservice/v1/documents/{filePath}.pdf/pages', {
  ...document,
  body: { TextStampAction: { text: env('STAMP_TEXT'), x: 72, y: 72 } },
});
check('run an action', stamp.response, stamp.error);
const stamped = stamp.data && 'etag' in stamp.data ? stamp.data : undefined;

const text = await client.GET('/pdfservice/v1/documents/{filePath}.pdf/text', { ...document, parseAs: 'text', headers: { Accept: 'text/plain' } });
check('read the text', text.response, text.error);

const download = await client.GET('/pdfservice/v1/documents/{filePath}.pdf', { ...document, parseAs: 'arrayBuffer', headers: { Accept: 'application/pdf' } });
check('download', download.response, download.error);

process.stdout.write(JSON.stringify({
  user: login.data?.username,
  folder: folder.data?.path,
  uploaded: uploaded?.path,
  pageCount: uploaded?.pageCount,
  annotations: annotations.data?.annotations.length,
  stampedVersion: stamped?.etag,
  text: text.data,
  download: download.data ? Buffer.from(download.data).toString('base64') : null,
}));
