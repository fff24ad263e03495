import { useState } from 'preact/hooks';
import { problemText, uploadFile } from './api.ts';
import { joinPath, makeFolder } from './docaccess.ts';

interface Item { id: number; name: string; loaded: number; total: number; state: 'sending' | 'converting' | 'done' | 'failed'; message: string }

/** What the picker offers: PDF, images and the Office and text formats the service converts (docs/office.md, docs/html.md). */
const ACCEPT = '.pdf,application/pdf,image/*,.doc,.docx,.odt,.rtf,.xls,.xlsx,.ods,.csv,.ppt,.pptx,.odp,.txt,.html,.htm,.md';

let nextId = 1;

/** A file to send, and the folder under the one shown it goes to ("" for the folder shown). */
interface Dropped { file: File; dir: string }

/** A directory's entries: readEntries answers a batch at a time (100 in Chromium) until it answers none. */
async function readAll(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/** A dropped entry walked: its folders (parents first) and its files with the folder each goes to. */
async function walk(entry: FileSystemEntry, dir: string, folders: string[], files: Dropped[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    files.push({ file, dir });
  } else if (entry.isDirectory) {
    const path = joinPath(dir, entry.name);
    folders.push(path);
    for (const child of await readAll(entry as FileSystemDirectoryEntry)) await walk(child, path, folders, files);
  }
}

/**
 * Upload by drag and drop or the file picker, one request per file with its own progress bar, and the naming mode
 * for names that exist already (namingMode: 0 refuse, 1 overwrite, 2 keep both).
 */
export function Upload({ folder, onUploaded }: { folder: string; onUploaded: () => void }) {
  const [items, setItems] = useState<Item[]>([]);
  const [namingMode, setNamingMode] = useState<0 | 1 | 2>(0);
  const [over, setOver] = useState(false);

  const update = (id: number, change: Partial<Item>) => setItems((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));

  const send = (files: FileList | Dropped[]) => {
    for (const { file, dir } of Array.from(files as ArrayLike<File | Dropped>, (f) => ('dir' in f ? f : { file: f, dir: '' }))) {
      const id = nextId++;
      setItems((list) => [...list, { id, name: joinPath(dir, file.name), loaded: 0, total: file.size, state: 'sending', message: '' }]);
      uploadFile(joinPath(folder, dir), file, namingMode, ({ loaded, total }) => update(id, { loaded, total, state: loaded >= total ? 'converting' : 'sending' }))
        .then(({ status, body }) => {
          if (status === 201) update(id, { state: 'done', message: `Stored as ${(body as { name?: string }).name ?? file.name}` });
          else if (status === 202) update(id, { state: 'done', message: 'Accepted: converting in the background' });
          else update(id, { state: 'failed', message: problemText(body, status) });
          onUploaded();
        }, (err: unknown) => update(id, { state: 'failed', message: problemText(err instanceof Error ? err.message : err) }));
    }
  };

  /**
   * A drop: folders among the items (webkitGetAsEntry, read during the event, while the DataTransfer is readable) are
   * made with their sub-folders (PUT; one that exists is used as it is), then every file is sent into its folder.
   */
  const drop = async (transfer: DataTransfer) => {
    const entries = Array.from(transfer.items ?? [], (item) => (item.kind === 'file' ? item.webkitGetAsEntry() : null));
    if (!entries.some((entry) => entry?.isDirectory)) {
      if (transfer.files.length) send(transfer.files);
      return;
    }
    const folders: string[] = [];
    const files: Dropped[] = [];
    for (const entry of entries) if (entry) await walk(entry, '', folders, files);
    for (const path of folders) {
      const problem = await makeFolder(joinPath(folder, path));
      if (problem) setItems((list) => [...list, { id: nextId++, name: `${path}/`, loaded: 0, total: 0, state: 'failed', message: `The folder was not made: ${problem}` }]);
    }
    if (folders.length) onUploaded();
    send(files);
  };

  return (
    <section class="upload" aria-labelledby="upload-title">
      <h2 id="upload-title">Upload</h2>
      <div class="inline">
        <label for="naming-mode">When the name exists</label>
        <select id="naming-mode" value={String(namingMode)} onChange={(event) => setNamingMode(Number(event.currentTarget.value) as 0 | 1 | 2)}>
          <option value="0">Refuse the upload</option>
          <option value="1">Replace the document</option>
          <option value="2">Keep both (add a number to the name)</option>
        </select>
      </div>
      <div
        class={over ? 'dropzone over' : 'dropzone'}
        data-testid="dropzone"
        onDragOver={(event) => { event.preventDefault(); setOver(true); }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          if (event.dataTransfer) void drop(event.dataTransfer).catch((err: unknown) => setItems((list) => [...list, { id: nextId++, name: 'Dropped items', loaded: 0, total: 0, state: 'failed', message: problemText(err instanceof Error ? err.message : err) }]));
        }}
      >
        <p>Drop files or folders here (PDF, images, Office, text, HTML: what the service converts), or</p>
        <input
          id="file-picker" class="visually-hidden" type="file" multiple accept={ACCEPT}
          onChange={(event) => {
            const input = event.currentTarget;
            if (input.files?.length) send(input.files);
            input.value = '';
          }}
        />
        <label for="file-picker" class="button">Choose files…</label>
      </div>
      {items.length > 0 && (
        <ul class="uploads" aria-label="Uploads">
          {items.map((item) => (
            <li key={item.id} data-state={item.state}>
              <span class="name">{item.name}</span>
              <progress max={item.total || 1} value={item.state === 'done' ? item.total || 1 : item.loaded} aria-label={`Upload of ${item.name}`} />
              <span class="state">{item.state === 'sending' ? 'Sending' : item.state === 'converting' ? 'Processing' : item.state === 'done' ? 'Done' : 'Failed'}</span>
              {item.message && <span class={item.state === 'failed' ? 'error' : 'note'}>{item.message}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
