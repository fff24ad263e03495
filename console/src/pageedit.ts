/**
 * What the viewer's editing tools share (annotate.tsx, fields.tsx, redact.tsx): the page's geometry (PDF user space to
 * the pixels of the server's page image and back, docs/pages.md#coordinates, rotation included), and writes to the
 * document with If-Match on the ETag the viewer has, so a document changed elsewhere is never overwritten unseen.
 */
import { API, encodePath, problemText, type Schemas } from './api.ts';

export type PageModel = Schemas['PageModel'];
export type Rect = { x: number; y: number; width: number; height: number };
export type Point = { x: number; y: number };

/** A page at a dpi: user space (points, y up, the media box's system) to image pixels (y down) and back. */
export class PageGeometry {
  readonly s: number;
  constructor(readonly page: PageModel, dpi: number) {
    const { rotation, cropBox } = page;
    // The page's width is the crop box times /UserUnit (after rotation): the unit is what the crop box alone does not give.
    const shownWidth = rotation === 90 || rotation === 270 ? cropBox.height : cropBox.width;
    const userUnit = shownWidth > 0 ? page.width / shownWidth : 1;
    this.s = (dpi / 72) * userUnit;
  }

  /** The pixel of the page image that shows the point (x, y) of user space (the table in docs/pages.md). */
  toPixel({ x, y }: Point): Point {
    const { x: cx, y: cy, width: cw, height: ch } = this.page.cropBox;
    const s = this.s;
    switch (this.page.rotation) {
      case 90: return { x: (y - cy) * s, y: (x - cx) * s };
      case 180: return { x: (cx + cw - x) * s, y: (y - cy) * s };
      case 270: return { x: (cy + ch - y) * s, y: (cx + cw - x) * s };
      default: return { x: (x - cx) * s, y: (cy + ch - y) * s };
    }
  }

  /** The point of user space a pixel of the page image shows: toPixel inverted. */
  toUser({ x: px, y: py }: Point): Point {
    const { x: cx, y: cy, width: cw, height: ch } = this.page.cropBox;
    const s = this.s;
    switch (this.page.rotation) {
      case 90: return { x: py / s + cx, y: px / s + cy };
      case 180: return { x: cx + cw - px / s, y: py / s + cy };
      case 270: return { x: cx + cw - py / s, y: cy + ch - px / s };
      default: return { x: px / s + cx, y: cy + ch - py / s };
    }
  }

  /** A user-space rectangle as the pixel box (left, top, width, height) that shows it. */
  toBox(rect: Rect): { left: number; top: number; width: number; height: number } {
    const a = this.toPixel({ x: rect.x, y: rect.y });
    const b = this.toPixel({ x: rect.x + rect.width, y: rect.y + rect.height });
    return { left: Math.min(a.x, b.x), top: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
  }

  /** Two pixels (a drag's ends) as the user-space rectangle between them. */
  toRect(p: Point, q: Point): Rect {
    const a = this.toUser(p);
    const b = this.toUser(q);
    return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
  }
}

export function documentUrl(doc: string): string {
  return `${API}/documents/${encodePath(doc.replace(/\.pdf$/i, ''))}.pdf`;
}

/** The document's current version: its ETag (what writes send as If-Match) and id (the page image asks for it, so a write shows at once). */
export interface DocState { etag: string; versionId?: string }

export async function readState(doc: string): Promise<DocState> {
  const response = await fetch(`${documentUrl(doc)}/versions?limit=1`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  const body = await response.json().catch(() => undefined) as Schemas['VersionsModel'] | undefined;
  if (!response.ok || !body) throw new Error(problemText(body, response.status));
  const current = body.versions[0];
  if (current && body.current === current.id) return { etag: current.etag, versionId: current.id };
  // No kept version is the current content: the document model gives the ETag.
  const model = await fetch(documentUrl(doc), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  const answer = await model.json().catch(() => undefined) as { etag?: string } | undefined;
  if (!model.ok || !answer?.etag) throw new Error(problemText(answer, model.status));
  return { etag: answer.etag };
}

/** A write refused because the document changed since the viewer read it (412): the caller reloads. */
export class ChangedElsewhere extends Error {
  constructor() {
    super('The document was changed since it was shown (412): it has been reloaded, nothing was overwritten. Try again.');
  }
}

/** A write to the document (or one of its sub-resources) with If-Match; the answer's JSON, or a thrown problem text. */
export async function write(doc: string, sub: string, etag: string, init: { method: string; body?: BodyInit; contentType?: string }): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json', 'If-Match': etag };
  if (init.contentType) headers['Content-Type'] = init.contentType;
  const response = await fetch(`${documentUrl(doc)}${sub}`, { method: init.method, credentials: 'same-origin', headers, body: init.body });
  if (response.status === 412) throw new ChangedElsewhere();
  const answer: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  if (!response.ok) throw new Error(problemText(answer, response.status));
  return answer;
}

/** JSON of a read of the document's sub-resource, or a thrown problem text. */
export async function read<T>(doc: string, sub: string): Promise<T> {
  const response = await fetch(`${documentUrl(doc)}${sub}`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  const answer: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw new Error(problemText(answer, response.status));
  return answer as T;
}

/** Text for XML: the five characters XML gives meaning escaped, and CR/LF/tab kept in attributes (docs/annotations.md). */
export function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

/** A number as XFDF writes it: plain, two decimals at most. */
export function num(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** Save a Blob as a download (the browser's own download of an object URL: no navigation, no inline content). */
export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
