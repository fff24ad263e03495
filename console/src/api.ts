/**
 * The console's one way to the service: openapi-fetch typed by the project's generated OpenAPI types
 * (clients/typescript/src/generated/api.ts), same origin, with the session cookie. Only the public API is used.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '../../clients/typescript/src/generated/api.ts';

export type Schemas = components['schemas'];
export type SessionModel = Schemas['SessionModel'];
export type FolderModel = Schemas['FolderModel'];
export type FolderEntry = FolderModel['entries'][number];
export type DocumentModel = Schemas['DocumentModel'];
export type Problem = { title?: string; detail?: string; code?: string; status?: number };

export const API = '/pdfservice/v1';

/** A server path ("reports/q1.pdf") as URL segments: each encoded on its own, the slashes kept. */
export function encodePath(serverPath: string): string {
  return serverPath.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
}

export const api = createClient<paths>({
  baseUrl: '',
  credentials: 'same-origin',
  // The folder and file paths of the API hold slashes: each segment is encoded, not the whole value.
  pathSerializer: (pathname, params) =>
    pathname.replace(/\{([^}]+)\}/g, (_all, name: string) => encodePath(String((params as Record<string, unknown>)[name] ?? ''))),
});

/** A problem document's words for a person (detail first, then title), or the status. */
export function problemText(error: unknown, status?: number): string {
  if (error && typeof error === 'object') {
    const problem = error as Problem;
    if (problem.detail || problem.title) return problem.detail ?? problem.title ?? '';
  }
  return status ? `The service answered ${status}` : String(error);
}

/** "reports/2026" to the folder's parent ("reports"), "" for a top-level one. */
export function parentOf(folder: string): string {
  const cut = folder.lastIndexOf('/');
  return cut < 0 ? '' : folder.slice(0, cut);
}

/** The URL of a page image at a zoom (1 = 96 dpi, the page's size on a screen), for an <img>: same origin, the cookie goes along. */
export function pageImageUrl(documentPath: string, pageIndex: number, dpi: number, versionId?: string): string {
  // The service answers with an ETag of the document's version: the browser revalidates, a new version is a new image.
  const version = versionId ? `&versionId=${encodeURIComponent(versionId)}` : '';
  return `${API}/documents/${encodePath(documentPath.replace(/\.pdf$/i, ''))}.pdf/pages/${pageIndex}/image?dpi=${dpi}&format=png${version}`;
}

export interface UploadProgress { loaded: number; total: number }

/**
 * A form upload with progress (XMLHttpRequest: fetch reports no upload progress in Chromium without streams over
 * HTTP/2). POST /documents/{folderPath} with the file in the part "file" and the naming mode chosen.
 */
export function uploadFile(folder: string, file: File, namingMode: 0 | 1 | 2, onProgress: (p: UploadProgress) => void, signal?: AbortSignal): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const target = folder ? `${API}/documents/${encodePath(folder)}` : `${API}/documents`;
    xhr.open('POST', `${target}?namingMode=${namingMode}`);
    xhr.setRequestHeader('Accept', 'application/json');
    // Office conversions become jobs unless asked to wait: wait up to a minute, so the list shows the document.
    xhr.setRequestHeader('Prefer', 'wait=60');
    xhr.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onload = () => {
      let body: unknown;
      try { body = JSON.parse(xhr.responseText); } catch { body = xhr.responseText; }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('The upload failed: the connection was lost'));
    xhr.onabort = () => reject(new Error('The upload was cancelled'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
