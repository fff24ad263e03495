import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, parentOf, problemText, type FolderEntry } from './api.ts';
import { formatSize, formatTime } from './format.ts';
import { folderHref, viewHref } from './route.ts';
import { Upload } from './upload.tsx';

interface Props { folder: string; canWrite: boolean; canDelete: boolean; canPost: boolean }

/** The folder's path as links, from the root. */
function Breadcrumbs({ folder }: { folder: string }) {
  const parts = folder ? folder.split('/') : [];
  return (
    <nav aria-label="Folder path">
      <ol class="crumbs">
        <li><a href={folderHref('')} aria-current={parts.length === 0 ? 'page' : undefined}>All documents</a></li>
        {parts.map((part, i) => (
          <li key={i}>
            <a href={folderHref(parts.slice(0, i + 1).join('/'))} aria-current={i === parts.length - 1 ? 'page' : undefined}>{part}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function Folders({ folder, canWrite, canDelete, canPost }: Props) {
  const [entries, setEntries] = useState<FolderEntry[] | null>(null);
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const [newName, setNewName] = useState('');

  const load = useCallback(async () => {
    const answer = folder
      ? await api.GET('/pdfservice/v1/documents/{folderPath}', { params: { path: { folderPath: folder }, query: { details: true } } })
      : await api.GET('/pdfservice/v1/documents', { params: { query: { details: true } } });
    if (answer.data) {
      setEntries(answer.data.entries);
      setError('');
    } else setError(problemText(answer.error, answer.response.status));
  }, [folder]);
  useEffect(() => { void load(); }, [load]);

  const createFolder = async (event: Event) => {
    event.preventDefault();
    const name = newName.trim();
    if (!name) return;
    const target = folder ? `${folder}/${name}` : name;
    const { error: problem, response } = await api.PUT('/pdfservice/v1/documents/{folderPath}', { params: { path: { folderPath: target } } });
    if (response.ok) {
      setNewName('');
      setStatus(`Folder “${name}” created`);
      await load();
    } else setError(problemText(problem, response.status));
  };

  const remove = async (entry: FolderEntry) => {
    const path = entry.path.replace(/^\/+/, '');
    const answer = entry.type === 'folder'
      ? await api.DELETE('/pdfservice/v1/documents/{folderPath}', { params: { path: { folderPath: path }, query: { recursive: true } } })
      : await api.DELETE('/pdfservice/v1/documents/{filePath}.pdf', { params: { path: { filePath: path.replace(/\.pdf$/i, '') } } });
    if (answer.response.ok) {
      setStatus(`“${entry.name}” moved to the trash`);
      await load();
    } else setError(problemText(answer.error, answer.response.status));
  };

  return (
    <main>
      <Breadcrumbs folder={folder} />
      <h1>{folder ? folder.split('/').at(-1) : 'All documents'}</h1>
      {error && <p role="alert" class="error">{error}</p>}
      <p role="status" class="status">{status}</p>
      {canWrite && (
        <form class="inline" onSubmit={(event) => void createFolder(event)}>
          <label for="new-folder">New folder name</label>
          <input id="new-folder" value={newName} onInput={(event) => setNewName(event.currentTarget.value)} required />
          <button type="submit">Create folder</button>
        </form>
      )}
      {canPost && <Upload folder={folder} onUploaded={() => void load()} />}
      {entries === null ? <p aria-busy="true">Loading…</p> : (
        <table class="entries">
          <caption class="visually-hidden">Contents of {folder || 'the root folder'}</caption>
          <thead>
            <tr><th scope="col">Name</th><th scope="col">Size</th><th scope="col">Pages</th><th scope="col">Modified</th>{canDelete && <th scope="col"><span class="visually-hidden">Actions</span></th>}</tr>
          </thead>
          <tbody>
            {folder && (
              <tr><td colSpan={canDelete ? 5 : 4}><a href={folderHref(parentOf(folder))}>.. (up one folder)</a></td></tr>
            )}
            {entries.length === 0 && <tr><td colSpan={canDelete ? 5 : 4}>This folder is empty.</td></tr>}
            {entries.map((entry) => (
              <tr key={entry.path}>
                <td>
                  <a href={entry.type === 'folder' ? folderHref(entry.path.replace(/^\/+/, '')) : viewHref(entry.path.replace(/^\/+/, ''))}>{entry.name}</a>
                  {entry.type === 'folder' && <span class="tag"> (folder)</span>}
                  {entry.encrypted && <span class="tag"> (encrypted)</span>}
                </td>
                <td>{formatSize(entry.size)}</td>
                <td>{entry.pageCount ?? ''}</td>
                <td><time dateTime={entry.modified}>{formatTime(entry.modified)}</time></td>
                {canDelete && (
                  <td><button type="button" class="small" aria-label={`Delete ${entry.name} (to the trash)`} onClick={() => void remove(entry)}>Delete</button></td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
