import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, problemText, type Schemas } from './api.ts';
import { ConfirmButton, domId, Pager } from './controls.tsx';
import { formatSize, formatTime } from './format.ts';
import { folderHref, viewHref } from './route.ts';

type Entry = Schemas['TrashEntryModel'];
const PAGE = 100;

/** Where a restored entry is now: the document in the viewer, the folder's listing. */
function restoredHref(entry: Entry, path: string): string {
  const bare = path.replace(/^\/+/, '');
  return entry.kind === 'document' ? viewHref(bare) : folderHref(bare);
}

/** One entry: restore (at its path, or at another when that is taken: 409 TRASH_PATH_TAKEN), or purge. */
function EntryRow({ entry, canRestore, canPurge, onDone, onError }: { entry: Entry; canRestore: boolean; canPurge: boolean; onDone: (message: string, link?: { href: string; text: string }) => Promise<void>; onError: (message: string) => void }) {
  // Shown after a 409: the path to restore to instead, proposed with " (restored)" before the extension.
  const [savePath, setSavePath] = useState<string | null>(null);
  const id = domId('trash', entry.id);

  const restore = async (target?: string) => {
    const { data, error, response } = await api.POST('/pdfservice/v1/trash/{id}/restore', {
      params: { path: { id: entry.id } },
      ...(target ? { body: { savePath: target } } : {}),
    });
    if (data) {
      const where = target ?? entry.path;
      await onDone(`${entry.kind === 'document' ? 'Document' : 'Folder'} restored to ${where.replace(/^\/+/, '')}`, { href: restoredHref(entry, where), text: 'Open it' });
    } else if (response.status === 409 && !target) {
      const bare = entry.path.replace(/^\/+/, '');
      setSavePath(entry.kind === 'document' ? bare.replace(/(\.pdf)?$/i, ' (restored).pdf') : `${bare} (restored)`);
      onError(`${problemText(error, response.status)} Choose another path below.`);
    } else onError(problemText(error, response.status));
  };
  const purge = async () => {
    const { error, response } = await api.DELETE('/pdfservice/v1/trash/{id}', { params: { path: { id: entry.id } } });
    if (response.ok) await onDone(`${entry.path.replace(/^\/+/, '')} purged for good`);
    else onError(problemText(error, response.status));
  };

  return (
    <tr>
      <td>{entry.path.replace(/^\/+/, '')}{entry.kind === 'folder' && <span class="tag"> (folder, {entry.documentCount} documents)</span>}</td>
      <td>{formatSize(entry.size)}</td>
      <td>{entry.versionCount}</td>
      <td><time dateTime={entry.deleted}>{formatTime(entry.deleted)}</time></td>
      <td>
        {canRestore && savePath === null && <button type="button" class="small" aria-label={`Restore ${entry.path.replace(/^\/+/, '')}`} onClick={() => void restore()}>Restore</button>}
        {canRestore && savePath !== null && (
          <form class="inline" onSubmit={(event) => { event.preventDefault(); void restore(savePath.trim()); }}>
            <label for={`${id}-path`}>Restore as</label>
            <input id={`${id}-path`} value={savePath} required onInput={(event) => setSavePath(event.currentTarget.value)} />
            <button type="submit" class="small">Restore here</button>
            <button type="button" class="small" onClick={() => setSavePath(null)}>Cancel</button>
          </form>
        )}
        {' '}
        {canPurge && <ConfirmButton text="Purge" label={`Purge ${entry.path.replace(/^\/+/, '')} for good`} question="Erase it and its versions for good?" confirmText="Yes, purge" onConfirm={purge} />}
      </td>
    </tr>
  );
}

/** The caller's trash (GET /trash, newest first): what they deleted, with its versions, until restored or purged. */
export function Trash({ canRestore, canPurge }: { canRestore: boolean; canPurge: boolean }) {
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [total, setTotal] = useState(0);
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState('');
  const [status, setStatus] = useState<{ message: string; link?: { href: string; text: string } }>({ message: '' });

  const load = useCallback(async () => {
    const { data, error: problem, response } = await api.GET('/pdfservice/v1/trash', { params: { query: { offset, limit: PAGE } } });
    if (data) {
      setEntries(data.entries);
      setTotal(data.total);
    } else setError(problemText(problem, response.status));
  }, [offset]);
  useEffect(() => { void load(); }, [load]);

  const done = async (message: string, link?: { href: string; text: string }) => {
    await load();
    setError('');
    setStatus({ message, ...(link ? { link } : {}) });
  };

  return (
    <main>
      <h1>Trash</h1>
      <p class="note">What you deleted, with its versions, newest first. Restore puts it back where it was; purge erases it for good.</p>
      {error && <p role="alert" class="error">{error}</p>}
      <p role="status" class="status">{status.message}{status.link && <> <a href={status.link.href}>{status.link.text}</a></>}</p>
      {entries === null ? <p aria-busy="true">Loading…</p> : (
        <>
          <table class="entries">
            <caption class="visually-hidden">Your trash</caption>
            <thead><tr><th scope="col">Path</th><th scope="col">Size</th><th scope="col">Versions</th><th scope="col">Deleted</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {entries.length === 0 && <tr><td colSpan={5}>The trash is empty.</td></tr>}
              {entries.map((entry) => <EntryRow key={entry.id} entry={entry} canRestore={canRestore} canPurge={canPurge} onDone={done} onError={setError} />)}
            </tbody>
          </table>
          <Pager label="Trash pages" offset={offset} total={total} page={PAGE} onOffset={setOffset} />
        </>
      )}
    </main>
  );
}
