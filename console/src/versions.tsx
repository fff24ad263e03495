import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, encodePath, API, parentOf, problemText, type Schemas } from './api.ts';
import { domId, Pager } from './controls.tsx';
import { formatSize, formatTime } from './format.ts';
import { folderHref, viewHref } from './route.ts';

type Version = Schemas['VersionModel'];
const PAGE = 100;

/** The document's ETag now (HEAD), for If-Match when no kept version is the current content (written while versions were off). */
async function currentEtag(doc: string): Promise<string | null> {
  const response = await fetch(`${API}/documents/${encodePath(doc.replace(/\.pdf$/i, ''))}.pdf`, { method: 'HEAD', credentials: 'same-origin' });
  return response.ok ? response.headers.get('etag') : null;
}

/** A version's label and pin (PATCH .../versions/{id}). */
function LabelForm({ version, number, doc, onSaved, onError }: { version: Version; number: number; doc: string; onSaved: (message: string) => Promise<void>; onError: (message: string) => void }) {
  const [label, setLabel] = useState(version.label ?? '');
  const id = domId('label', version.id);
  const save = async (change: { label?: string | null; pinned?: boolean }, message: string) => {
    const { error, response } = await api.PATCH('/pdfservice/v1/documents/{filePath}.pdf/versions/{versionId}', {
      params: { path: { filePath: doc.replace(/\.pdf$/i, ''), versionId: version.id } },
      body: change,
    });
    if (response.ok) await onSaved(message);
    else onError(problemText(error, response.status));
  };
  return (
    <form class="inline" onSubmit={(event) => { event.preventDefault(); void save({ label: label.trim() || null }, label.trim() ? `Version labelled “${label.trim()}”` : 'Label removed'); }}>
      <label for={id} class="visually-hidden">Label of version {number}</label>
      <input id={id} value={label} maxLength={200} size={14} onInput={(event) => setLabel(event.currentTarget.value)} />
      <button type="submit" class="small">Save label</button>
      <button type="button" class="small" aria-label={`Pin version ${number}`} aria-pressed={version.pinned ? 'true' : 'false'} onClick={() => void save({ pinned: !version.pinned }, version.pinned ? 'Version unpinned' : 'Version pinned: kept whatever the retention policy says')}>
        {version.pinned ? 'Pinned' : 'Pin'}
      </button>
    </form>
  );
}

/**
 * A document's history (GET .../versions, newest first): who wrote each version, when, by what operation, its size;
 * open one in the viewer (?versionId=), restore one (a new version, If-Match on the current one), label and pin.
 */
export function Versions({ doc, canEdit, canRestore }: { doc: string; canEdit: boolean; canRestore: boolean }) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [total, setTotal] = useState(0);
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const filePath = doc.replace(/\.pdf$/i, '');

  const load = useCallback(async () => {
    const { data, error: problem, response } = await api.GET('/pdfservice/v1/documents/{filePath}.pdf/versions', {
      params: { path: { filePath }, query: { offset, limit: PAGE } },
    });
    if (data) {
      setVersions(data.versions);
      setTotal(data.total);
    } else setError(problemText(problem, response.status));
  }, [filePath, offset]);
  useEffect(() => { void load(); }, [load]);

  const done = async (message: string) => {
    // The list first, then the message: what the message says is on the screen when it is read.
    await load();
    setError('');
    setStatus(message);
  };

  const restore = async (version: Version, number: number) => {
    // If-Match: the current content the user was looking at; a write since then is 412, not overwritten unseen.
    const etag = versions?.find((v) => v.current)?.etag ?? await currentEtag(doc);
    const { error: problem, response } = await api.POST('/pdfservice/v1/documents/{filePath}.pdf/versions/{versionId}/restore', {
      params: { path: { filePath, versionId: version.id } },
      headers: etag ? { 'If-Match': etag } : {},
    });
    if (response.ok) await done(`Version ${number} restored as the current content (a new version)`);
    else if (response.status === 412) {
      setError('The document changed since this list was shown: the list is reloaded, look again before restoring.');
      await load();
    } else setError(problemText(problem, response.status));
  };

  return (
    <main>
      <nav aria-label="Back"><a href={folderHref(parentOf(doc))}>← Back to {parentOf(doc) || 'all documents'}</a> · <a href={viewHref(doc)}>Open the current version</a></nav>
      <h1>Versions of {doc.split('/').at(-1)}</h1>
      {error && <p role="alert" class="error">{error}</p>}
      <p role="status" class="status">{status}</p>
      {versions === null ? <p aria-busy="true">Loading…</p> : (
        <>
          <table class="entries versions">
            <caption class="visually-hidden">Versions of {doc}, newest first</caption>
            <thead>
              <tr><th scope="col">Version</th><th scope="col">Written</th><th scope="col">By</th><th scope="col">Operation</th><th scope="col">Size</th><th scope="col">Pages</th><th scope="col">Label</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
            </thead>
            <tbody>
              {versions.length === 0 && <tr><td colSpan={8}>No version is kept of this document.</td></tr>}
              {versions.map((version, index) => {
                // Numbered from the oldest kept (1), as a person counts them; the id stays in the address.
                const number = total - offset - index;
                return (
                <tr key={version.id} data-version={version.id}>
                  <th scope="row">{number}{version.current && <span class="tag"> (current)</span>}</th>
                  <td><time dateTime={version.created}>{formatTime(version.created)}</time></td>
                  <td>{version.user ?? 'the service'}</td>
                  <td>{version.operation}</td>
                  <td>{formatSize(version.size)}</td>
                  <td>{version.pageCount ?? ''}</td>
                  <td>{canEdit ? <LabelForm key={`${version.label ?? ''} ${version.pinned}`} version={version} number={number} doc={doc} onSaved={done} onError={setError} /> : <>{version.label ?? ''}{version.pinned ? ' (pinned)' : ''}</>}</td>
                  <td>
                    <a href={viewHref(doc, 1, version.current ? undefined : version.id)} aria-label={`View version ${number}`}>View</a>
                    {canRestore && !version.current && (
                      <> <button type="button" class="small" aria-label={`Restore version ${number}`} onClick={() => void restore(version, number)}>Restore</button></>
                    )}
                  </td>
                </tr>
                );
              })}
            </tbody>
          </table>
          <Pager label="Version pages" offset={offset} total={total} page={PAGE} onOffset={setOffset} />
        </>
      )}
    </main>
  );
}
