/**
 * The pdfservice client: the typed API generated from the service's OpenAPI description (`client.api`, openapi-fetch
 * over openapi-typescript's types), and what generation does not give: signing in and keeping the session, uploads
 * of every kind, following a job to its end over Server-Sent Events, and one error class for problem documents.
 * README.md beside this package says how to use it.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { PdfServiceError, type Problem } from './errors.js';
import type { components, paths } from './generated/api.js';
import { parseEvents } from './sse.js';

export { PdfServiceError, type Problem } from './errors.js';
export type { components, operations, paths } from './generated/api.js';

type Schemas = components['schemas'];
export type DocumentModel = Schemas['DocumentModel'];
export type Job = Schemas['Job'];
export type SessionModel = Schemas['SessionModel'];
export type FolderModel = Schemas['FolderModel'];
/** The options of a signature (`keystorePassword`, `signReason`, `createField`, …; docs/signing.md); the rest take their defaults. */
export type SignRequest = Partial<Schemas['SignRequest']>;
export type SignatureFieldModel = Schemas['SignatureFieldModel'];
/** A document action's body: exactly one key, the action's name (docs/api.md, "Actions"). */
export type DocumentAction = NonNullable<paths['/pdfservice/v1/documents/{filePath}.pdf']['post']['requestBody']>['content']['application/json'];
/** A page action's body (`InsertPagesAction`, `DeletePagesAction`, …). */
export type PageAction = NonNullable<paths['/pdfservice/v1/documents/{filePath}.pdf/pages']['post']['requestBody']>['content']['application/json'];

/** The API's path prefix; the description's paths carry it. */
export const API_PREFIX = '/pdfservice/v1';

export interface ClientOptions {
  /** Where the service is, e.g. `http://localhost:8080` (the API is under /pdfservice/v1). */
  baseUrl: string;
  /** An API token (`pdfs_…`), sent as `Authorization: Bearer` (docs/api.md, "API tokens"). */
  token?: string;
  /** User name and password sent as HTTP Basic on every request, for scripts; `login()` makes a session instead. */
  basic?: { username: string; password: string };
  /** Another fetch (a proxy agent, a test double). */
  fetch?: typeof fetch;
}

/** Bytes to send: a Blob (its type is used when none is given), a Uint8Array or an ArrayBuffer. */
export type FileData = Blob | Uint8Array | ArrayBuffer;

/** A file of a form upload: its name (which names the stored document), its bytes, and optionally its type. */
export interface FilePart {
  name: string;
  data: FileData;
  type?: string;
}

export interface WriteOptions {
  /**
   * `Prefer` (docs/jobs.md): `respond-async` answers 202 with a job at once, `wait=N` waits up to N seconds for
   * work that runs as a job by nature (Office conversions, OCR).
   */
  prefer?: string;
  /** `If-Match`: write only over this version (412 otherwise). */
  ifMatch?: string;
  /** Query parameters (Office conversion options, `namingMode`, …). */
  query?: Record<string, string | number | boolean>;
  /** The document's password (`X-Service-DocumentPassword`). */
  password?: string;
}

/**
 * What a write answered: the document (200/201), or the job it became (202). `done()` gives the document in both
 * cases, following the job to its end.
 */
export interface WriteResult {
  status: number;
  location: string | null;
  document?: DocumentModel;
  job?: Job;
}

/** One step of a one-shot conversion: a document or a page action's body, without `savePath` (docs/api.md, "One-shot conversions"). */
export type ConvertStep = DocumentAction | PageAction;

export interface ConvertOptions {
  /** A bundle's other files (parts `asset`, docs/api.md#bundles). */
  assets?: FilePart[];
  /** The steps' own files, given to every step: the image of an `ImageStampAction`, the pages of an `InsertAttachedPagesAction`. */
  attachments?: FilePart[];
  /** `Prefer`: `respond-async` runs it as a job (followed here to its end), `respond-async, wait=N` answers the file if done within N s. */
  prefer?: string;
  /** The password of an encrypted PDF input (`X-Service-DocumentPassword`). */
  password?: string;
  /** Office conversion options (`pageRange`, `landscape`, `sheet`, `notesPages`, `pdfa`). */
  query?: Record<string, string | number | boolean>;
  signal?: AbortSignal;
  /** Called with each event of the job, when the conversion became one. */
  onEvent?: (event: JobEvent) => void;
}

/** What a one-shot conversion gave: the result's bytes, name and type, and the job when it ran as one. */
export interface ConvertResult {
  data: Uint8Array;
  /** The result's file name (`minutes.pdf` for `minutes.docx`), from `Content-Disposition`. */
  name: string | undefined;
  mediaType: string;
  job?: Job;
}

/** One event of `GET /jobs/{id}/events`: its number, its kind and the job as it stands. */
export interface JobEvent {
  id: string;
  event: 'state' | 'progress' | 'end';
  job: Job;
}

/** Media types by file extension, for uploads whose type is not given (the PUT media types of the description). */
const MEDIA_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  gif: 'image/gif',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  dotx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.template',
  docm: 'application/vnd.ms-word.document.macroenabled.12',
  odt: 'application/vnd.oasis.opendocument.text',
  fodt: 'application/vnd.oasis.opendocument.text-flat-xml',
  rtf: 'application/rtf',
  txt: 'text/plain',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroenabled.12',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  fods: 'application/vnd.oasis.opendocument.spreadsheet-flat-xml',
  csv: 'text/csv',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  pptm: 'application/vnd.ms-powerpoint.presentation.macroenabled.12',
  odp: 'application/vnd.oasis.opendocument.presentation',
  fodp: 'application/vnd.oasis.opendocument.presentation-flat-xml',
};

/** The media type for a file name; `application/octet-stream` (the service then recognises the content) otherwise. */
export function mediaTypeOf(fileName: string): string {
  const extension = /\.([^./]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return MEDIA_TYPES[extension] ?? 'application/octet-stream';
}

/** A server path (`reports/2026/q1.pdf`) as URL path segments, each percent-encoded once. */
function encodePath(serverPath: string): string {
  return serverPath.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
}

function toBlob(data: FileData, type?: string): Blob {
  if (data instanceof Blob) return type && type !== data.type ? new Blob([data], { type }) : data;
  // Copied into an ArrayBuffer of its own: a Uint8Array may view a larger or shared buffer (a Node Buffer from its
  // pool), and Buffer's slice() is a view, not a copy.
  const bytes = data instanceof Uint8Array ? new Uint8Array(data) : new Uint8Array(data.slice(0));
  return new Blob([bytes.buffer as ArrayBuffer], type ? { type } : {});
}

/** The file name of a `Content-Disposition` (RFC 6266): `filename*` when there is one, else `filename`. */
function dispositionName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header)?.[1];
  if (extended) return decodeURIComponent(extended);
  return /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1]?.replace(/\\(.)/g, '$1') ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
}

/** A job's id from the job itself, its id, or its URL (the `Location` of a 202). */
function jobId(job: Job | string): string {
  if (typeof job !== 'string') return job.id;
  return job.replace(/\/+$/, '').split('/').pop() ?? job;
}

const ENDED = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);

export class PdfServiceClient {
  /** The generated client: every operation of the description, typed (openapi-fetch). Problems throw PdfServiceError. */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  /** The credentials sent with every request: a session cookie, a Bearer token or Basic. */
  private auth: [name: string, value: string] | undefined;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    if (options.token) this.useToken(options.token);
    else if (options.basic) this.auth = ['Authorization', `Basic ${btoa(`${options.basic.username}:${options.basic.password}`)}`];
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: (request) => this.fetch(request) });
    this.api.use(this.middleware());
  }

  private middleware(): Middleware {
    return {
      onRequest: ({ request }) => {
        if (this.auth && !request.headers.has(this.auth[0])) request.headers.set(this.auth[0], this.auth[1]);
        return request;
      },
      onResponse: async ({ response }) => {
        if (!response.ok && response.status !== 304) throw await PdfServiceError.fromResponse(response);
        return response;
      },
    };
  }

  /** A request outside the generated client (uploads, downloads, events): the same credentials, the same errors. */
  async request(method: string, apiPath: string, init: { headers?: Record<string, string>; body?: BodyInit; query?: WriteOptions['query']; signal?: AbortSignal } = {}): Promise<Response> {
    const url = new URL(`${this.baseUrl}${API_PREFIX}${apiPath}`);
    for (const [name, value] of Object.entries(init.query ?? {})) url.searchParams.set(name, String(value));
    const headers = new Headers(init.headers);
    if (this.auth && !headers.has(this.auth[0])) headers.set(this.auth[0], this.auth[1]);
    const response = await this.fetch(url, { method, headers, ...(init.body !== undefined ? { body: init.body } : {}), ...(init.signal ? { signal: init.signal } : {}) });
    if (!response.ok && response.status !== 304) throw await PdfServiceError.fromResponse(response);
    return response;
  }

  // --- Signing in ------------------------------------------------------------------------------------------------

  /**
   * Logs in (`POST /sessions`) and sends the session cookie from then on. In a browser the cookie is HttpOnly and
   * the browser keeps it; under Node it is kept here.
   */
  async login(username: string, password: string): Promise<SessionModel> {
    const { data, response } = await this.api.POST('/pdfservice/v1/sessions', { body: { username, password } });
    const cookies = typeof response.headers.getSetCookie === 'function' ? response.headers.getSetCookie() : [response.headers.get('set-cookie') ?? ''];
    const session = cookies.map((c) => /^\s*(SESSIONID=[^;]*)/.exec(c)?.[1]).find(Boolean);
    if (session) this.auth = ['Cookie', session];
    return data as SessionModel;
  }

  /** Who the credentials in use belong to (`GET /sessions/current`). */
  async whoami(): Promise<SessionModel> {
    const { data } = await this.api.GET('/pdfservice/v1/sessions/current');
    return data as SessionModel;
  }

  /** Logs out (`DELETE /sessions/current`) and forgets the credentials. */
  async logout(): Promise<void> {
    await this.api.DELETE('/pdfservice/v1/sessions/current');
    this.auth = undefined;
  }

  /** Sends an API token from now on (`Authorization: Bearer`). */
  useToken(token: string): void {
    this.auth = ['Authorization', `Bearer ${token}`];
  }

  // --- Documents and folders -------------------------------------------------------------------------------------

  /** Creates a folder (and its parents), `PUT /documents/{folderPath}`. */
  async createFolder(folderPath: string): Promise<void> {
    await this.request('PUT', `/documents/${encodePath(folderPath)}`);
  }

  /**
   * Stores a document at `documentPath` (`reports/q1.pdf`), `PUT /documents/{filePath}.pdf`: a PDF as it is, an
   * image or an Office file converted (docs/api.md, "Documents"). The type is `options.type`, else the Blob's, else
   * guessed from `fileName` (or the path), else `application/octet-stream` (recognised by content).
   */
  async upload(documentPath: string, data: FileData, options: WriteOptions & { type?: string; fileName?: string } = {}): Promise<WriteResult> {
    const type = options.type ?? (data instanceof Blob && data.type ? data.type : mediaTypeOf(options.fileName ?? documentPath));
    const response = await this.request('PUT', `/documents/${encodePath(documentPath)}`, {
      headers: { 'Content-Type': type, ...this.writeHeaders(options) },
      body: toBlob(data, type),
      ...(options.query ? { query: options.query } : {}),
    });
    return this.writeResult(response);
  }

  /**
   * Stores a file into a folder by form (`POST /documents/{folderPath}`, multipart): named after the file
   * (`memo.docx` becomes `memo.pdf`). `assets` go as the parts of a bundle (docs/api.md#bundles); `namingMode` 0
   * fails on an existing name (409), 1 overwrites, 2 appends a random number.
   */
  async uploadForm(folderPath: string, file: FilePart, options: WriteOptions & { namingMode?: 0 | 1 | 2; assets?: FilePart[] } = {}): Promise<WriteResult> {
    const form = new FormData();
    form.append('file', toBlob(file.data, file.type ?? mediaTypeOf(file.name)), file.name);
    for (const asset of options.assets ?? []) form.append('asset', toBlob(asset.data, asset.type ?? mediaTypeOf(asset.name)), asset.name);
    const query = { ...options.query, ...(options.namingMode !== undefined ? { namingMode: options.namingMode } : {}) };
    const response = await this.request('POST', `/documents/${encodePath(folderPath)}`, { headers: this.writeHeaders(options), body: form, query });
    return this.writeResult(response);
  }

  /** Runs a document action (`POST /documents/{filePath}.pdf` with `{ "ActionName": {…} }`). */
  async action(documentPath: string, action: DocumentAction, options: WriteOptions = {}): Promise<WriteResult> {
    const response = await this.request('POST', `/documents/${encodePath(documentPath)}`, {
      headers: { 'Content-Type': 'application/json', ...this.writeHeaders(options) },
      body: JSON.stringify(action),
      ...(options.query ? { query: options.query } : {}),
    });
    return this.writeResult(response);
  }

  /** Runs a page action (`POST /documents/{filePath}.pdf/pages`). */
  async pageAction(documentPath: string, action: PageAction, options: WriteOptions = {}): Promise<WriteResult> {
    const pagesPath = `${encodePath(documentPath)}/pages`;
    const response = await this.request('POST', `/documents/${pagesPath}`, {
      headers: { 'Content-Type': 'application/json', ...this.writeHeaders(options) },
      body: JSON.stringify(action),
    });
    return this.writeResult(response);
  }

  /**
   * Converts without storing anything (`POST /convert`, docs/api.md "One-shot conversions"): `file` (a PDF, an
   * image, an Office document) converted to PDF, then `steps` run on it in order (`[{ PDFAConvertAction: { profile:
   * 'pdfa2b' } }, { OptimizeAction: { profileName: 'lossless' } }]`), the result answered. When it runs as a job
   * (202: `prefer: 'respond-async'`, or large files), the job is followed over SSE to its end and its result
   * downloaded (`GET /jobs/{id}/result`); a step the service refuses, or a job that failed, throws PdfServiceError.
   */
  async convert(file: FilePart, steps: ConvertStep[] = [], options: ConvertOptions = {}): Promise<ConvertResult> {
    const form = new FormData();
    form.append('file', toBlob(file.data, file.type ?? mediaTypeOf(file.name)), file.name);
    for (const asset of options.assets ?? []) form.append('asset', toBlob(asset.data, asset.type ?? mediaTypeOf(asset.name)), asset.name);
    if (steps.length > 0) form.append('steps', JSON.stringify(steps));
    for (const attachment of options.attachments ?? []) form.append('attachment', toBlob(attachment.data, attachment.type ?? mediaTypeOf(attachment.name)), attachment.name);
    const response = await this.request('POST', '/convert', {
      // The result, or (202) the job as JSON; a problem is JSON either way.
      headers: { ...this.writeHeaders(options), Accept: 'application/pdf, application/json' },
      body: form,
      ...(options.query ? { query: options.query } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (response.status !== 202) return this.fileOf(response);
    const job = await this.waitForJob((await response.json()) as Job, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
    const result = await this.request('GET', `/jobs/${encodeURIComponent(job.id)}/result`, { ...(options.signal ? { signal: options.signal } : {}) });
    return { ...(await this.fileOf(result)), job };
  }

  private async fileOf(response: Response): Promise<ConvertResult> {
    return {
      data: new Uint8Array(await response.arrayBuffer()),
      name: dispositionName(response.headers.get('content-disposition')),
      mediaType: (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim(),
    };
  }

  /**
   * Signs the signature field `fieldName` with a PKCS#12 key store (`POST
   * /documents/{filePath}.pdf/fields/signature-fields/{fieldName}/signature`, docs/signing.md); `signature` holds
   * its options (`keystorePassword`, `signReason`, `createField` to make an invisible field, …). Answers the field.
   */
  async sign(documentPath: string, fieldName: string, keystore: FileData, signature: SignRequest, options: Pick<WriteOptions, 'ifMatch' | 'password'> = {}): Promise<SignatureFieldModel> {
    const form = new FormData();
    form.append('signature', new Blob([JSON.stringify(signature)], { type: 'application/json' }));
    form.append('file', toBlob(keystore, 'application/x-pkcs12'), 'keystore.p12');
    const fieldPath = `${encodePath(documentPath)}/fields/signature-fields/${encodeURIComponent(fieldName)}/signature`;
    const response = await this.request('POST', `/documents/${fieldPath}`, { headers: this.writeHeaders(options), body: form });
    return (await response.json()) as SignatureFieldModel;
  }

  /** The document model (`GET /documents/{filePath}.pdf` with `Accept: application/json`). */
  async document(documentPath: string, options: { password?: string } = {}): Promise<DocumentModel> {
    const response = await this.request('GET', `/documents/${encodePath(documentPath)}`, {
      headers: { Accept: 'application/json', ...(options.password !== undefined ? { 'X-Service-DocumentPassword': options.password } : {}) },
    });
    return (await response.json()) as DocumentModel;
  }

  /** The document's bytes (`GET /documents/{filePath}.pdf`). */
  async download(documentPath: string): Promise<Uint8Array> {
    const response = await this.request('GET', `/documents/${encodePath(documentPath)}`, { headers: { Accept: 'application/pdf' } });
    return new Uint8Array(await response.arrayBuffer());
  }

  /** Deletes a document (`DELETE /documents/{filePath}.pdf`). */
  async delete(documentPath: string, options: { ifMatch?: string } = {}): Promise<void> {
    await this.request('DELETE', `/documents/${encodePath(documentPath)}`, { headers: options.ifMatch ? { 'If-Match': options.ifMatch } : {} });
  }

  private writeHeaders(options: WriteOptions): Record<string, string> {
    return {
      Accept: 'application/json',
      ...(options.prefer ? { Prefer: options.prefer } : {}),
      ...(options.ifMatch ? { 'If-Match': options.ifMatch } : {}),
      ...(options.password !== undefined ? { 'X-Service-DocumentPassword': options.password } : {}),
    };
  }

  private async writeResult(response: Response): Promise<WriteResult> {
    const location = response.headers.get('location');
    const text = await response.text();
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    if (response.status === 202) return { status: 202, location, job: body as Job };
    return { status: response.status, location, ...(body !== undefined ? { document: body as DocumentModel } : {}) };
  }

  /**
   * The document a write made: at once when it ran inline, else after following its job to the end. A job that
   * failed throws its problem as PdfServiceError.
   */
  async done(result: WriteResult): Promise<DocumentModel> {
    if (result.document) return result.document;
    if (!result.job) throw new Error(`the answer (${result.status}) holds neither a document nor a job`);
    const job = await this.waitForJob(result.job);
    return job.result?.document as DocumentModel;
  }

  // --- Jobs --------------------------------------------------------------------------------------------------------

  /** A job as it stands (`GET /jobs/{id}`). */
  async job(job: Job | string): Promise<Job> {
    const { data } = await this.api.GET('/pdfservice/v1/jobs/{id}', { params: { path: { id: jobId(job) } } });
    return data as Job;
  }

  /**
   * The job's events as they happen (`GET /jobs/{id}/events`, Server-Sent Events), until its `end` event. A stream
   * cut before the end is opened again with `Last-Event-ID`, so no event is lost or repeated.
   */
  async *followJob(job: Job | string, options: { signal?: AbortSignal } = {}): AsyncGenerator<JobEvent> {
    const id = jobId(job);
    let lastEventId: string | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await this.request('GET', `/jobs/${encodeURIComponent(id)}/events`, {
        headers: { Accept: 'text/event-stream', ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (!response.body) throw new Error('the events answer has no body');
      let received = false;
      for await (const message of parseEvents(response.body)) {
        if (message.data === '') continue;
        received = true;
        if (message.id) lastEventId = message.id;
        const event: JobEvent = { id: message.id ?? '', event: message.event as JobEvent['event'], job: JSON.parse(message.data) as Job };
        yield event;
        if (event.event === 'end') return;
      }
      if (received) attempt = -1; // progress was made: a cut stream is opened again as often as it delivers
    }
    throw new Error(`the events of job ${id} ended before its end event`);
  }

  /** Follows the job to its end and answers it; a job that failed, was cancelled or interrupted throws its problem. */
  async waitForJob(job: Job | string, options: { signal?: AbortSignal; onEvent?: (event: JobEvent) => void } = {}): Promise<Job> {
    let last: Job | undefined;
    for await (const event of this.followJob(job, options)) {
      options.onEvent?.(event);
      last = event.job;
    }
    if (!last || !ENDED.has(last.state)) last = await this.job(job);
    if (last.state !== 'succeeded') {
      const error = last.error as Problem | undefined;
      throw new PdfServiceError(error ?? { status: 500, code: 'JOB_' + last.state.toUpperCase(), title: `The job ${last.state}`, ...(last.reason ? { detail: last.reason } : {}) });
    }
    return last;
  }
}
