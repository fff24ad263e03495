import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, parentOf, problemText, type FolderEntry } from './api.ts';
import { copyFolder, joinPath, postEntryAction, trimPath } from './docaccess.ts';
import { formatSize, formatTime } from './format.ts';
import { folderHref, viewHref } from './route.ts';
import { FolderTree, type Pick } from './tree.tsx';
import { Upload } from './upload.tsx';

/** A move or copy waiting for its target folder, picked in the tree. */
interface Pending { entry: FolderEntry; op: 'Move' | 'Copy' }

/** A name typed for a document keeps the .pdf the API's document paths end with. */
function documentName(name: string): string {
  return /\.pdf$/i.test(name) ? name : `${name}.pdf`;
}

/** The name of a copy made in the folder the entry is in: "q1 (copy).pdf", "reports (copy)". */
function copyName(entry: FolderEntry): string {
  return entry.type === 'folder' ? `${entry.name} (copy)` : entry.name.replace(/(\.pdf)?$/i, ' (copy)$1');
}

/** The name cell while renaming: a field with the name, Save and Cancel (Escape). */
function RenameForm({ entry, onRename, onCancel }: { entry: FolderEntry; onRename: (name: string) => void; onCancel: () => void }) {
  const [name, setName] = useState(entry.name);
  const id = `rename-${entry.path.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <form class="inline" onSubmit={(event) => { event.preventDefault(); if (name.trim()) onRename(name.trim()); }} onKeyDown={(event) => { if (event.key === 'Escape') onCancel(); }}>
      <label for={id} class="visually-hidden">New name of {entry.name}</label>
      <input id={id} value={name} onInput={(event) => setName(event.currentTarget.value)} required ref={(input) => input?.focus()} />
      <button type="submit" class="small">Save name</button>
      <button type="button" class="small" onClick={onCancel}>Cancel</button>
    </form>
  );
}

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
  const [renaming, setRenaming] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  // Bumped after every change, so the tree lists the folders again.
  const [version, setVersion] = useState(0);
  const canMove = canPost && canWrite && canDelete;
  const canCopy = canPost && canWrite;

  const load = useCallback(async () => {
    const answer = folder
      ? await api.GET('/pdfservice/v1/documents/{folderPath}', { params: { path: { folderPath: folder }, query: { details: true } } })
      : await api.GET('/pdfservice/v1/documents', { params: { query: { details: true } } });
    if (answer.data) {
      setEntries(answer.data.entries);
      setVersion((v) => v + 1);
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

  /** Rename (a MoveAction within the folder), move to a folder picked in the tree, or copy there. */
  const apply = async (entry: FolderEntry, op: 'Rename' | 'Move' | 'Copy', target: string, name: string) => {
    setError('');
    setStatus('');
    const from = trimPath(entry.path);
    const savePath = joinPath(target, entry.type === 'document' ? documentName(name) : name);
    if (op !== 'Copy' && savePath === from) return;
    const problem = op === 'Copy' && entry.type === 'folder'
      ? (await copyFolder(from, savePath)).join('; ') || undefined
      : await postEntryAction(from, entry.type, op === 'Copy' ? 'CopyAction' : 'MoveAction', savePath, entry.type === 'document' ? 0 : undefined);
    if (problem) setError(`${op} of “${entry.name}”: ${problem}`);
    else setStatus(op === 'Rename' ? `“${entry.name}” renamed to “${savePath.split('/').at(-1) ?? ''}”` : `“${entry.name}” ${op === 'Move' ? 'moved' : 'copied'} to ${savePath}`);
    await load();
  };

  const pick: Pick | undefined = pending ? {
    verb: pending.op,
    onPick: (target) => {
      const { entry, op } = pending;
      setPending(null);
      void apply(entry, op, target, op === 'Copy' && target === folder ? copyName(entry) : entry.name);
    },
  } : undefined;
  const showActions = canCopy || canDelete;
  const columns = 4 + (showActions ? 1 : 0);

  return (
    <div class="folders-layout">
    <FolderTree current={folder} pick={pick} version={version} />
    <main>
      <Breadcrumbs folder={folder} />
      <h1>{folder ? folder.split('/').at(-1) : 'All documents'}</h1>
      {error && <p role="alert" class="error">{error}</p>}
      <p role="status" class="status">{status}</p>
      {pending && (
        <p class="picking" role="group" aria-label={`${pending.op} ${pending.entry.name}`} onKeyDown={(event) => { if (event.key === 'Escape') setPending(null); }}>
          <span>{pending.op} “{pending.entry.name}”: choose the folder with “{pending.op} here” in the folder tree.</span>{' '}
          <button type="button" class="small" onClick={() => setPending(null)}>Cancel {pending.op.toLowerCase()}</button>
        </p>
      )}
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
            <tr><th scope="col">Name</th><th scope="col">Size</th><th scope="col">Pages</th><th scope="col">Modified</th>{showActions && <th scope="col"><span class="visually-hidden">Actions</span></th>}</tr>
          </thead>
          <tbody>
            {folder && (
              <tr><td colSpan={columns}><a href={folderHref(parentOf(folder))}>.. (up one folder)</a></td></tr>
            )}
            {entries.length === 0 && <tr><td colSpan={columns}>This folder is empty.</td></tr>}
            {entries.map((entry) => (
              <tr key={entry.path}>
                <td>
                  {renaming === entry.path ? (
                    <RenameForm entry={entry} onCancel={() => setRenaming('')} onRename={(name) => { setRenaming(''); void apply(entry, 'Rename', folder, name); }} />
                  ) : (
                    <>
                      <a href={entry.type === 'folder' ? folderHref(entry.path.replace(/^\/+/, '')) : viewHref(entry.path.replace(/^\/+/, ''))}>{entry.name}</a>
                      {entry.type === 'folder' && <span class="tag"> (folder)</span>}
                      {entry.encrypted && <span class="tag"> (encrypted)</span>}
                    </>
                  )}
                </td>
                <td>{formatSize(entry.size)}</td>
                <td>{entry.pageCount ?? ''}</td>
                <td><time dateTime={entry.modified}>{formatTime(entry.modified)}</time></td>
                {showActions && (
                  <td class="row-actions">
                    {canMove && <button type="button" class="small" aria-label={`Rename ${entry.name}`} onClick={() => setRenaming(entry.path)}>Rename</button>}
                    {canMove && <button type="button" class="small" aria-label={`Move ${entry.name}`} onClick={() => setPending({ entry, op: 'Move' })}>Move</button>}
                    {canCopy && <button type="button" class="small" aria-label={`Copy ${entry.name}`} onClick={() => setPending({ entry, op: 'Copy' })}>Copy</button>}
                    {canDelete && <button type="button" class="small" aria-label={`Delete ${entry.name} (to the trash)`} onClick={() => void remove(entry)}>Delete</button>}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class="note">Who last changed a document is in its versions (“Versions of this document” in the viewer): the folder list of the API does not say it.</p>
    </main>
    </div>
  );
}
