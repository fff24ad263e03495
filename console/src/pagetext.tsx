/**
 * The viewer's text and password parts: the page image fetched with the document's password when it has one, a
 * transparent text layer over it made from the page's words (GET .../pages/{i}/text?detail=words), search in the
 * document (GET .../text) with its hits highlighted, and the password prompt of an encrypted document.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { API, encodePath, problemText, type DocumentModel, type Schemas } from './api.ts';
import { getJson, knownPassword, passwordHeaders, rememberPassword } from './docaccess.ts';
import { viewHref } from './route.ts';

type Rectangle = Schemas['Rectangle'];
interface Word { text: string; rectangle: Rectangle }
type PageModel = Schemas['PageModel'];

function documentUrl(doc: string): string {
  return `${API}/documents/${encodePath(doc.replace(/\.pdf$/i, ''))}.pdf`;
}

function versionQuery(versionId: string | undefined, first: '?' | '&'): string {
  return versionId ? `${first}versionId=${encodeURIComponent(versionId)}` : '';
}

/**
 * An image of the API. Without a password it is a plain <img src> (the browser's cache and ETags do the rest); an <img>
 * cannot send a header, so with a password the image is fetched with it and shown from a blob: URL (the console's CSP
 * allows blob: images for this).
 */
export function DocImg({ doc, src, ...rest }: { doc: string; src: string; alt: string; class?: string; 'data-testid'?: string; onLoad?: () => void; onError?: () => void }) {
  const password = knownPassword(doc);
  const [blobUrl, setBlobUrl] = useState('');
  useEffect(() => {
    if (password === undefined) return;
    let url = '';
    let live = true;
    void fetch(src, { credentials: 'same-origin', headers: passwordHeaders(password) }).then(async (response) => {
      if (!response.ok) throw new Error(String(response.status));
      url = URL.createObjectURL(await response.blob());
      if (live) setBlobUrl(url);
    }).catch(() => { if (live) rest.onError?.(); });
    return () => { live = false; if (url) URL.revokeObjectURL(url); };
  }, [src, password]);
  if (password === undefined) return <img src={src} {...rest} />;
  return blobUrl ? <img src={blobUrl} data-source={src} {...rest} /> : <span class="img-wait" aria-busy="true">{rest.alt}</span>;
}

/**
 * The prompt of a document that needs a password to open: the password is checked by asking for the DocumentModel
 * with it; the service's 403 DOCUMENT_PASSWORD_INVALID is said in words. A right password is kept for this page load.
 */
export function PasswordPrompt({ doc, versionId, onOpened }: { doc: string; versionId?: string | undefined; onOpened: (model: DocumentModel) => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => { field.current?.focus(); }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const response = await fetch(`${documentUrl(doc)}${versionQuery(versionId, '?')}`, { credentials: 'same-origin', headers: { Accept: 'application/json', ...passwordHeaders(password) } });
      const body: unknown = await response.json().catch(() => undefined);
      const model = body as DocumentModel;
      if (response.ok && model.pageCount !== undefined) {
        rememberPassword(doc, password);
        onOpened(model);
        return;
      }
      const code = (body as { code?: string } | undefined)?.code;
      setError(code === 'DOCUMENT_PASSWORD_INVALID' || response.ok
        ? 'Wrong password: this password does not open the document. Try again.'
        : problemText(body, response.status));
      setPassword('');
      field.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="password-prompt" onSubmit={(event) => void submit(event)} aria-labelledby="password-title">
      <h2 id="password-title">This document is encrypted</h2>
      <p>It needs its password to be shown. The password is sent to the service with each request for this document and kept only until the page is closed or reloaded.</p>
      <label for="document-password">Document password</label>
      <input id="document-password" ref={field} type="password" autocomplete="off" value={password} onInput={(event) => setPassword(event.currentTarget.value)} aria-describedby={error ? 'password-error' : undefined} />
      <button type="submit" disabled={busy}>Open</button>
      {error && <p id="password-error" role="alert" class="error">{error}</p>}
    </form>
  );
}

/** Whitespace runs as one space, lower case: the form search compares (the words of a page joined by single spaces). */
function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  if (!needle) return found;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

/** A search's hits: each page's count, in page order, and the one shown (its page and its place on that page). */
export interface SearchState { query: string; hits: { page: number; nth: number }[]; current: number }
export const NO_SEARCH: SearchState = { query: '', hits: [], current: -1 };

/** Search in the whole document's text; next and previous go from hit to hit, to another page when they must. */
export function DocumentSearch({ doc, page, versionId, state, onState }: { doc: string; page: number; versionId?: string | undefined; state: SearchState; onState: (s: SearchState) => void }) {
  const [query, setQuery] = useState(state.query);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const go = (hits: SearchState['hits'], current: number, q: string) => {
    onState({ query: q, hits, current });
    const hit = hits[current];
    if (hit && hit.page !== page) location.hash = viewHref(doc, hit.page, versionId);
    setMessage(hits.length === 0 ? `No “${q}” in this document.` : `Hit ${current + 1} of ${hits.length}, on page ${hit!.page}.`);
  };

  const search = async (event: Event) => {
    event.preventDefault();
    const q = normalise(query);
    if (!q) { onState(NO_SEARCH); setMessage(''); return; }
    setBusy(true);
    try {
      const text = await getJson<{ pages: { pageIndex: number; text: string }[] }>(`${documentUrl(doc)}/text${versionQuery(versionId, '?')}`, doc);
      const hits: SearchState['hits'] = [];
      for (const { pageIndex, text: pageText } of text.pages) {
        occurrences(normalise(pageText), q).forEach((_, nth) => hits.push({ page: pageIndex + 1, nth }));
      }
      // Start at the first hit on or after the page shown.
      const first = hits.findIndex((hit) => hit.page >= page);
      go(hits, hits.length ? Math.max(0, first) : -1, q);
    } catch (err) {
      setMessage(problemText(err instanceof Error ? err.message : err));
    } finally {
      setBusy(false);
    }
  };
  const step = (by: number) => {
    if (!state.hits.length) return;
    go(state.hits, (state.current + by + state.hits.length) % state.hits.length, state.query);
  };

  return (
    <form class="inline search" role="search" onSubmit={(event) => void search(event)}>
      <label for="doc-search">Search in the document</label>
      <input id="doc-search" type="search" value={query} onInput={(event) => setQuery(event.currentTarget.value)} />
      <button type="submit" disabled={busy}>Search</button>
      <button type="button" onClick={() => step(-1)} disabled={state.hits.length === 0}>Previous hit</button>
      <button type="button" onClick={() => step(1)} disabled={state.hits.length === 0}>Next hit</button>
      <span role="status" data-testid="search-status">{message}</span>
    </form>
  );
}

/** A word's box in user space to the displayed page's pixels (origin at the crop box's top left, after /Rotate). */
function toScreen(r: Rectangle, page: PageModel, scale: number): { left: number; top: number; width: number; height: number } {
  const { x: x0, y: y0, width: w, height: h } = page.cropBox;
  const x1 = x0 + w;
  const y1 = y0 + h;
  const corner = (ux: number, uy: number): [number, number] => {
    switch (page.rotation) {
      case 90: return [uy - y0, ux - x0];
      case 180: return [x1 - ux, uy - y0];
      case 270: return [y1 - uy, x1 - ux];
      default: return [ux - x0, y1 - uy];
    }
  };
  const [ax, ay] = corner(r.x, r.y);
  const [bx, by] = corner(r.x + r.width, r.y + r.height);
  return { left: Math.min(ax, bx) * scale, top: Math.min(ay, by) * scale, width: Math.abs(bx - ax) * scale, height: Math.abs(by - ay) * scale };
}

let measure: CanvasRenderingContext2D | null | undefined;
/** The width of a text in the layer's font, so each word is stretched over its box (the selection then covers the glyphs). */
function textWidth(text: string, size: number): number {
  measure ??= document.createElement('canvas').getContext('2d');
  if (!measure) return 0;
  measure.font = `${size}px sans-serif`;
  return measure.measureText(text).width;
}

/**
 * The page's words as transparent text over the image, each stretched over its box, so the browser's selection and
 * copy take the page's text; a word ends with a space, or a line break before a word on the next line. The hits of
 * the search are marked, the current one scrolled to.
 */
export function TextLayer({ doc, pageIndex, dpi, versionId, search }: { doc: string; pageIndex: number; dpi: number; versionId?: string | undefined; search: SearchState }) {
  const [data, setData] = useState<{ page: PageModel; words: Word[] } | null>(null);
  const layer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    setData(null);
    const url = documentUrl(doc);
    void Promise.all([
      getJson<{ pages: PageModel[] }>(`${url}/pages?offset=${pageIndex}&limit=1${versionQuery(versionId, '&')}`, doc),
      getJson<{ words?: Word[] }>(`${url}/pages/${pageIndex}/text?detail=words${versionQuery(versionId, '&')}`, doc),
    ]).then(([pages, text]) => {
      if (live && pages.pages[0]) setData({ page: pages.pages[0], words: text.words ?? [] });
    }, () => { /* the page shows without its text */ });
    return () => { live = false; };
  }, [doc, pageIndex, versionId]);

  const scale = dpi / 72;
  // The words of the current hits: each hit's characters mapped back to the words they fall in.
  const marks = useMemo(() => {
    const marked = new Map<number, boolean>();
    if (!data || !search.query) return marked;
    const starts: number[] = [];
    let joined = '';
    data.words.forEach((word, i) => {
      if (i) joined += ' ';
      starts.push(joined.length);
      joined += normalise(word.text);
    });
    const current = search.hits[search.current];
    occurrences(joined, search.query).forEach((at, nth) => {
      const end = at + search.query.length;
      const isCurrent = current !== undefined && current.page === pageIndex + 1 && current.nth === nth;
      starts.forEach((start, i) => {
        if (start < end && start + normalise(data.words[i]!.text).length > at) marked.set(i, isCurrent || marked.get(i) === true);
      });
    });
    return marked;
  }, [data, search, pageIndex]);
  useEffect(() => { layer.current?.querySelector('.hit.current')?.scrollIntoView({ block: 'center', inline: 'nearest' }); }, [marks]);

  if (!data) return null;
  return (
    <div class="text-layer" ref={layer} data-testid="text-layer">
      {data.words.map((word, i) => {
        const box = toScreen(word.rectangle, data.page, scale);
        const next = data.words[i + 1];
        const newLine = next !== undefined && Math.abs(next.rectangle.y - word.rectangle.y) > word.rectangle.height / 2;
        const size = box.height * 0.8;
        const width = textWidth(word.text, size);
        const mark = marks.get(i);
        return (
          <span
            key={i}
            class={mark === undefined ? undefined : mark ? 'hit current' : 'hit'}
            style={{ left: `${box.left}px`, top: `${box.top}px`, fontSize: `${size}px`, transform: width > 0 ? `scaleX(${box.width / width})` : undefined }}
          >{word.text}{next === undefined ? '' : newLine ? '\n' : ' '}</span>
        );
      })}
    </div>
  );
}
