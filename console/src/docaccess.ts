/**
 * What the folder screen and the viewer need beyond openapi-fetch's typed calls: the path of an entry, MoveAction and
 * CopyAction posted to a document or a folder (docs/move.md), a folder copied document by document, and the password
 * of an encrypted document kept for this page load (docs/api.md, "Document passwords").
 */
import { API, encodePath, problemText, type FolderModel } from './api.ts';

export type EntryType = 'document' | 'folder';

/** "/a/b.pdf" (as the API lists it) to "a/b.pdf". */
export function trimPath(path: string): string {
  return path.replace(/^\/+/, '');
}

export function joinPath(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/** The URL of a document (…/name.pdf) or a folder. */
export function entryUrl(path: string, type: EntryType): string {
  return type === 'folder' ? `${API}/documents/${encodePath(path)}` : `${API}/documents/${encodePath(path.replace(/\.pdf$/i, ''))}.pdf`;
}

async function readProblem(response: Response): Promise<string> {
  let body: unknown;
  try { body = await response.json(); } catch { body = undefined; }
  return problemText(body, response.status);
}

/** POST {"MoveAction"|"CopyAction": {...}} to an entry; undefined when done, else the service's problem text. */
export async function postEntryAction(path: string, type: EntryType, action: 'MoveAction' | 'CopyAction', savePath: string, namingMode?: 0 | 1 | 2): Promise<string | undefined> {
  const response = await fetch(entryUrl(path, type), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ [action]: namingMode === undefined ? { savePath } : { savePath, namingMode } }),
  });
  return response.ok ? undefined : readProblem(response);
}

/** PUT a folder (and its parents): 201 made, 200 it was there; undefined when it is there now. */
export async function makeFolder(path: string): Promise<string | undefined> {
  const response = await fetch(entryUrl(path, 'folder'), { method: 'PUT', credentials: 'same-origin', headers: { Accept: 'application/json' } });
  return response.ok ? undefined : readProblem(response);
}

export async function listFolder(path: string): Promise<FolderModel['entries']> {
  const response = await fetch(path ? entryUrl(path, 'folder') : `${API}/documents`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(await readProblem(response));
  return ((await response.json()) as FolderModel).entries;
}

/**
 * A folder copied: the API copies documents (CopyAction), not folders, so the folder and its sub-folders are made at
 * the target and every document copied into them. The target must not exist (as for a folder's MoveAction). The
 * problems met, by path; an empty list when everything was copied.
 */
export async function copyFolder(from: string, to: string): Promise<string[]> {
  const there = await fetch(entryUrl(to, 'folder'), { method: 'HEAD', credentials: 'same-origin' });
  if (there.ok) return [`${to}: a folder of that name exists there`];
  const problems: string[] = [];
  const made = await makeFolder(to);
  if (made) return [`${to}: ${made}`];
  for (const entry of await listFolder(from)) {
    const target = joinPath(to, entry.name);
    const problem = entry.type === 'folder'
      ? (await copyFolder(trimPath(entry.path), target)).join('; ') || undefined
      : await postEntryAction(trimPath(entry.path), 'document', 'CopyAction', target, 0);
    if (problem) problems.push(`${entry.name}: ${problem}`);
  }
  return problems;
}

/** Passwords of encrypted documents opened in this page load, by document path: in memory only, never stored. */
const passwords = new Map<string, string>();

export function rememberPassword(doc: string, password: string): void {
  passwords.set(trimPath(doc), password);
}

export function knownPassword(doc: string): string | undefined {
  return passwords.get(trimPath(doc));
}

/**
 * The password header for a document: the base64 form (X-Service-DocumentPassword-Base64) carries any password
 * exactly, spaces at either end and non-ASCII letters included (a plain header value would lose the spaces).
 */
export function passwordHeaders(password: string | undefined): Record<string, string> {
  if (password === undefined) return {};
  const bytes = new TextEncoder().encode(password);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { 'X-Service-DocumentPassword-Base64': btoa(binary) };
}

/** A GET of the API with the document's password, as JSON (or the problem's text thrown). */
export async function getJson<T>(url: string, doc: string): Promise<T> {
  const response = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json', ...passwordHeaders(knownPassword(doc)) } });
  if (!response.ok) throw new Error(await readProblem(response));
  return (await response.json()) as T;
}
