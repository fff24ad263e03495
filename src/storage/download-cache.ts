import fs from 'node:fs/promises';
import { spoolName, StagedFile } from './local-files.js';

/**
 * How long, and how much, is kept of versions just downloaded or written:
 * long enough for the next request on the document (the model after an
 * upload, a job after its password check), bounded so that the data folder
 * does not fill. Only disk use depends on these, never what is served: a
 * store serves a kept version only after its source confirmed it (a
 * conditional GET answered 304: WebDavStore.openDocument, where the DMS also
 * checks the requesting user's rights, and S3Store.openDocument, where other
 * instances write the same bucket).
 */
const KEEP_MS = 5 * 60 * 1000;
const KEEP_BYTES = 1024 * 1024 * 1024;
const KEEP_VERSIONS = 1000;

/** A document version whose bytes are in a local file, as its source (the DMS, S3) tagged it. */
export interface CachedDownload {
  file: string;
  /** The source's entity tag of the version, as it sent it (what a conditional GET names): the DMS's ETag, S3's. */
  sourceEtag: string;
  size: number;
  modified: Date;
  /** Our tag: the content hash. */
  etag: string;
  /** When it was kept (Date.now()). */
  kept: number;
}

export type DownloadTags = Omit<CachedDownload, 'file' | 'kept'>;

/**
 * The download cache of the remote stores (S3, WebDAV): a local copy of
 * recent versions, never an answer by itself (below). Its folder is still
 * `<dataDir>/kept`, the name it had before, so that an existing data folder
 * keeps no orphaned copies (recover() empties it at start).
 *
 * The last version downloaded from or written to each document, by a key
 * that names the document at its source (the URL for WebDAV, the object key
 * for S3), kept in a local folder of its own (`<dataDir>/kept`: a service has
 * one store, so one table and one folder) for a while, so that the next read
 * of that version needs no second download. One table per service, whichever
 * user read or wrote the version: it says nothing about who may read it
 * (for WebDAV only the DMS decides that, asked every time) nor whether it is
 * still current (the source is asked every time). Map order is the order
 * versions were kept in (the oldest goes first).
 */
export class DownloadCache {
  private readonly versions = new Map<string, CachedDownload>();
  private bytes = 0;
  private expiry: NodeJS.Timeout | undefined;

  constructor(private readonly dir: string) {}

  async init(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
  }

  /** Starts empty: what an earlier run kept is removed (nothing says which versions those files were). */
  async clear(): Promise<void> {
    this.versions.clear();
    this.bytes = 0;
    await fs.rm(this.dir, { recursive: true, force: true });
    await fs.mkdir(this.dir, { recursive: true });
  }

  /**
   * Keeps a download (`file`, which this takes over: moved into the folder,
   * or removed when it cannot be kept) as the bytes of `key` at a source
   * version, in place of any earlier one. Without the source's tag a version
   * cannot be asked about, so it is not kept. A reader with the file open keeps
   * reading it whatever happens to its name.
   */
  async keepDownload(key: string, version: Omit<DownloadTags, 'sourceEtag'> & { sourceEtag: string | undefined }, file: string): Promise<void> {
    const { sourceEtag } = version;
    const name = spoolName(this.dir);
    if (sourceEtag === undefined || version.size > KEEP_BYTES || !(await fs.rename(file, name).then(() => true, () => false))) {
      await fs.rm(file, { force: true });
      return;
    }
    await this.add(key, { ...version, sourceEtag, file: name, kept: Date.now() });
  }

  /**
   * Keeps content just written to `key` (its bytes are at hand: a staged
   * file is linked, not copied). Best effort: a copy that cannot be made
   * costs only a download later.
   */
  async keepWritten(key: string, version: DownloadTags, content: StagedFile | Uint8Array): Promise<void> {
    if (version.size > KEEP_BYTES) {
      await this.drop(key);
      return;
    }
    const name = spoolName(this.dir);
    try {
      if (content instanceof StagedFile) await fs.link(content.file, name);
      else await fs.writeFile(name, content, { flag: 'wx', mode: 0o640 });
    } catch {
      await fs.rm(name, { force: true });
      await this.drop(key);
      return;
    }
    await this.add(key, { ...version, file: name, kept: Date.now() });
  }

  /** The kept version of `key`, opened (it stays readable whatever is evicted meanwhile); undefined when none is kept. */
  async open(key: string): Promise<{ version: CachedDownload; handle: fs.FileHandle } | undefined> {
    const version = this.versions.get(key);
    if (!version) return undefined;
    if (Date.now() - version.kept >= KEEP_MS) {
      await removeFiles([this.remove(key, version)]);
      return undefined;
    }
    try {
      return { version, handle: await fs.open(version.file, 'r') };
    } catch {
      this.remove(key, version);
      return undefined;
    }
  }

  /** Stops keeping the version of `key` (a newer one is at the source, or none). */
  async drop(key: string): Promise<void> {
    const version = this.versions.get(key);
    if (version) await removeFiles([this.remove(key, version)]);
  }

  /** Stops keeping every version whose key starts with `keyPrefix` (a folder deleted). */
  async dropBelow(keyPrefix: string): Promise<void> {
    const gone: CachedDownload[] = [];
    for (const [key, version] of this.versions) if (key.startsWith(keyPrefix)) gone.push(this.remove(key, version));
    await removeFiles(gone);
  }

  private async add(key: string, version: CachedDownload): Promise<void> {
    const gone: CachedDownload[] = [];
    const earlier = this.versions.get(key);
    if (earlier) gone.push(this.remove(key, earlier));
    this.versions.set(key, version);
    this.bytes += version.size;
    for (const [k, old] of this.versions) {
      if (this.bytes <= KEEP_BYTES && this.versions.size <= KEEP_VERSIONS && Date.now() - old.kept < KEEP_MS) break;
      gone.push(this.remove(k, old));
    }
    this.expireLater();
    await removeFiles(gone);
  }

  /** Takes a version out of the table (if it is still the one kept for `key`); its file is the caller's to remove. */
  private remove(key: string, version: CachedDownload): CachedDownload {
    if (this.versions.get(key) === version) {
      this.versions.delete(key);
      this.bytes -= version.size;
    }
    return version;
  }

  /** Removes versions older than KEEP_MS also while no request comes; the timer does not hold the process. */
  private expireLater(): void {
    if (this.expiry || this.versions.size === 0) return;
    this.expiry = setTimeout(() => {
      this.expiry = undefined;
      const gone: CachedDownload[] = [];
      for (const [key, version] of this.versions) if (Date.now() - version.kept >= KEEP_MS) gone.push(this.remove(key, version));
      void removeFiles(gone).then(() => this.expireLater());
    }, KEEP_MS);
    this.expiry.unref();
  }
}

/** Removes the files of versions no longer kept. */
async function removeFiles(versions: readonly CachedDownload[]): Promise<void> {
  await Promise.all(versions.map((v) => fs.rm(v.file, { force: true }).catch(() => undefined)));
}
