import { useEffect, useState } from 'preact/hooks';
import { PageEditor } from './annotate.tsx';
import { api, pageImageUrl, parentOf, problemText, type DocumentModel } from './api.ts';
import { knownPassword, passwordHeaders } from './docaccess.ts';
import { formatSize, formatTime } from './format.ts';
import { DocImg, DocumentSearch, NO_SEARCH, PasswordPrompt, TextLayer } from './pagetext.tsx';
import { actionsHref, folderHref, versionsHref, viewHref } from './route.ts';

/** Zoom levels: 100% is the page's size on a 96 dpi screen; the server renders at the dpi the zoom asks for. */
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2];
const BASE_DPI = 96;
const THUMB_DPI = 18;
/** Thumbnails shown around the current page: a 1,000-page document asks for a handful of images, not a thousand. */
const THUMB_SPAN = 4;

function Properties({ model }: { model: DocumentModel }) {
  const rows: [string, string | number | undefined][] = [
    ['Name', model.name], ['Size', formatSize(model.size)], ['Pages', model.pageCount], ['PDF version', model.pdfVersion],
    ['Title', model.title], ['Author', model.author], ['Subject', model.subject], ['Keywords', model.keywords],
    ['Creator', model.creator], ['Producer', model.producer], ['Created', formatTime(model.creationDate)],
    ['Modified (in the document)', formatTime(model.modificationDate)], ['Stored', formatTime(model.modified)],
    ['Encrypted', model.encrypted ? 'yes' : 'no'], ['Has a form', model.hasForm === undefined ? undefined : model.hasForm ? 'yes' : 'no'],
    ['Signed', model.hasSignatures === undefined ? undefined : model.hasSignatures ? 'yes' : 'no'],
    ['Linearized', model.linearized === undefined ? undefined : model.linearized ? 'yes' : 'no'],
  ];
  return (
    <section class="properties" aria-labelledby="properties-title">
      <h2 id="properties-title">Properties</h2>
      <dl>
        {rows.filter(([, value]) => value !== undefined && value !== '').map(([term, value]) => (
          <div key={term}><dt>{term}</dt><dd>{value}</dd></div>
        ))}
      </dl>
    </section>
  );
}

/** A document's page, its thumbnails and properties; with versionId, a kept version of it (docs/versions.md). */
export function Viewer({ doc, page, versionId }: { doc: string; page: number; versionId?: string }) {
  const [model, setModel] = useState<DocumentModel | null>(null);
  const [error, setError] = useState('');
  const [zoom, setZoom] = useState(1);
  const [goTo, setGoTo] = useState(String(page));
  const [loading, setLoading] = useState(true);
  const [search, setSearch] = useState(NO_SEARCH);
  // The service refused the document without its password (403 DOCUMENT_PASSWORD_REQUIRED): the prompt is shown.
  const [locked, setLocked] = useState(false);
  // After an edit in the viewer, the id of the version it wrote: the image of that version, so the edit shows at once.
  const [shownVersion, setShownVersion] = useState<string | undefined>(undefined);
  // The page whose image was last shown: the thumbnails are of its neighbours and are asked for only then, so that
  // they do not take the engine's workers from the page's own image (on a large scan each costs a whole decode).
  const [shownPage, setShownPage] = useState<number | null>(null);

  useEffect(() => {
    void api.GET('/pdfservice/v1/documents/{filePath}.pdf', {
      params: { path: { filePath: doc.replace(/\.pdf$/i, '') }, query: versionId ? { versionId } : {} },
      headers: { Accept: 'application/json', ...passwordHeaders(knownPassword(doc)) },
      parseAs: 'json',
    }).then(({ data, error: problem, response }) => {
      if (response.ok && data) setModel(data as unknown as DocumentModel);
      else if ((problem as { code?: string } | undefined)?.code === 'DOCUMENT_PASSWORD_REQUIRED') setLocked(true);
      else setError(problemText(problem, response.status));
    }, (err: unknown) => setError(problemText(err)));
  }, [doc, versionId]);
  useEffect(() => setShownPage(null), [doc, versionId]);
  useEffect(() => {
    setGoTo(String(page));
    setLoading(true);
  }, [page, zoom]);

  const count = model?.pageCount ?? 0;
  const show = (n: number) => {
    const target = Math.min(Math.max(1, Math.trunc(n)), Math.max(1, count));
    location.hash = viewHref(doc, target, versionId);
  };
  const folder = parentOf(doc);
  const center = shownPage ?? page;
  const first = Math.max(1, center - THUMB_SPAN);
  const last = Math.min(count, center + THUMB_SPAN);
  const thumbs = [];
  for (let n = first; n <= last; n++) thumbs.push(n);

  const image = (
    <DocImg
      doc={doc}
      data-testid="page-image"
      src={pageImageUrl(doc, page - 1, Math.round(BASE_DPI * zoom), versionId ?? shownVersion)}
      alt={`Page ${page} of ${count}`}
      onLoad={() => { setLoading(false); setShownPage(page); }}
      onError={() => { setLoading(false); setShownPage(page); setError(`Page ${page} could not be rendered`); }}
    />
  );
  const withText = (
    <div class="page-canvas">
      {image}
      <TextLayer doc={doc} pageIndex={page - 1} dpi={Math.round(BASE_DPI * zoom)} versionId={versionId} search={search} />
    </div>
  );

  return (
    <main class="viewer">
      <nav aria-label="Back"><a href={folderHref(folder)}>← Back to {folder || 'all documents'}</a></nav>
      <h1>{doc.split('/').at(-1)}</h1>
      <p class="version-note">
        {versionId && <span data-testid="version-note">An earlier version ({versionId}), not the current content. <a href={viewHref(doc, page)}>Show the current version</a> · </span>}
        <a href={versionsHref(doc)}>Versions of this document</a> · <a href={actionsHref(doc)}>Actions on this document</a>
      </p>
      {error && <p role="alert" class="error">{error}</p>}
      {(locked || (model?.encrypted && model.pageCount === undefined)) && <PasswordPrompt doc={doc} versionId={versionId} onOpened={(opened) => { setLocked(false); setModel(opened); }} />}
      {model && !(model.encrypted && model.pageCount === undefined) && (
        <div class="viewer-layout">
          <nav class="thumbs" aria-label="Pages">
            <ol>
              {thumbs.map((n) => (
                <li key={n}>
                  <a href={viewHref(doc, n, versionId)} aria-current={n === page ? 'page' : undefined} aria-label={`Page ${n}`}>
                    {shownPage !== null ? <DocImg doc={doc} src={pageImageUrl(doc, n - 1, THUMB_DPI, versionId)} alt="" /> : <span class="img-wait" aria-hidden="true" />}
                    <span aria-hidden="true">{n}</span>
                  </a>
                </li>
              ))}
            </ol>
          </nav>
          <section class="page-area" aria-label="Page view">
            <div class="toolbar" role="toolbar" aria-label="Page navigation and zoom">
              <button type="button" onClick={() => show(page - 1)} disabled={page <= 1}>Previous page</button>
              <form class="inline" onSubmit={(event) => { event.preventDefault(); show(Number(goTo)); }}>
                <label for="page-number">Page number</label>
                <input id="page-number" type="number" min={1} max={count} value={goTo} onInput={(event) => setGoTo(event.currentTarget.value)} />
                <span>of {count}</span>
                <button type="submit">Go</button>
              </form>
              <button type="button" onClick={() => show(page + 1)} disabled={page >= count}>Next page</button>
              <label for="zoom">Zoom</label>
              <select id="zoom" value={String(zoom)} onChange={(event) => setZoom(Number(event.currentTarget.value))}>
                {ZOOMS.map((z) => <option key={z} value={String(z)}>{Math.round(z * 100)}%</option>)}
              </select>
            </div>
            <DocumentSearch doc={doc} page={page} versionId={versionId} state={search} onState={setSearch} />
            {count > 0 && page <= count ? (
              <figure class="page" tabIndex={0} aria-label={`Page ${page}`} aria-busy={loading ? 'true' : 'false'}>
                {versionId ? withText : (
                  <PageEditor key={page} doc={doc} pageIndex={page - 1} dpi={Math.round(BASE_DPI * zoom)} onVersion={setShownVersion}>{withText}</PageEditor>
                )}
              </figure>
            ) : <p role="alert">{count === 0 ? 'This document shows no pages (it may need a password).' : `There is no page ${page}.`}</p>}
          </section>
          <Properties model={model} />
        </div>
      )}
    </main>
  );
}
