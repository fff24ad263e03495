import fs from 'node:fs/promises';
import { spoolName, StagedFile } from '../local-files.js';

/**
 * How long, and how much, is kept of versions just downloaded or written:
 * long enough for the next request on the document (the model after an
 * upload, a job after its password check), bounded so that the data folder
 * does not fill. Only disk use depends on these, never what is served: the
 * store serves a kept version only after the DMS confirmed it for the
 * requesting user (WebDavStore.openDocument).
 */
const KEEP_MS = 5 * 60 * 1000;
const KEEP_BYTES = 1024 * 1024 * 1024;
const KEEP_VERSIONS = 1000;

/** A document version whose bytes are in a local file, as the DMS tagged it. */
export interface KeptVersion {
  file: string;
  /** The DMS's entity tag of the version, as it sent it (what a conditional GET names). */
  davEtag: string;
  size: number;
  modified: Date;
  /** Our tag: the content hash. */
  etag: string;
  /** When it was kept (Date.now()). */
  kept: number;
}

export type VersionOf = Omit<KeptVersion, 'file' | 'kept'>;

/**
 * The last version downloaded from or written to each document URL, kept in
 * a local folder of its own for a while, so that the next read of that
 * version needs no second download. One table per service (the WebDAV
 * backend's), whichever user read or wrote the version: it says nothing
 * about who may read it, which only the DMS decides, asked every time.
 * Map order is the order versions were kept in (the oldest goes first).
 */
export class KeptVersions {
  private readonly versions = new Map<string, KeptVersion>();
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
   * or removed when it cannot be kept) as the bytes of `url` at a DMS
   * version, in place of any earlier one. Without a DMS tag a version cannot
   * be asked about, so it is not kept. A reader with the file open keeps
   * reading it whatever happens to its name.
   */
  async keepDownload(url: string, version: Omit<VersionOf, 'davEtag'> & { davEtag: string | undefined }, file: string): Promise<void> {
    const { davEtag } = version;
    const name = spoolName(this.dir);
    if (davEtag === undefined || version.size > KEEP_BYTES || !(await fs.rename(file, name).then(() => true, () => false))) {
      await fs.rm(file, { force: true });
      return;
    }
    await this.add(url, { ...version, davEtag, file: name, kept: Date.now() });
  }

  /**
   * Keeps content just written to `url` (its bytes are at hand: a staged
   * file is linked, not copied). Best effort: a copy that cannot be made
   * costs only a download later.
   */
  async keepWritten(url: string, version: VersionOf, content: StagedFile | Uint8Array): Promise<void> {
    if (version.size > KEEP_BYTES) {
      await this.drop(url);
      return;
    }
    const name = spoolName(this.dir);
    try {
      if (content instanceof StagedFile) await fs.link(content.file, name);
      else await fs.writeFile(name, content, { flag: 'wx', mode: 0o640 });
    } catch {
      await fs.rm(name, { force: true });
      await this.drop(url);
      return;
    }
    await this.add(url, { ...version, file: name, kept: Date.now() });
  }

  /** The kept version of `url`, opened (it stays readable whatever is evicted meanwhile); undefined when none is kept. */
  async open(url: string): Promise<{ version: KeptVersion; handle: fs.FileHandle } | undefined> {
    const version = this.versions.get(url);
    if (!version) return undefined;
    if (Date.now() - version.kept >= KEEP_MS) {
      await removeFiles([this.remove(url, version)]);
      return undefined;
    }
    try {
      return { version, handle: await fs.open(version.file, 'r') };
    } catch {
      this.remove(url, version);
      return undefined;
    }
  }

  /** Stops keeping the version of `url` (a newer one is on the DMS). */
  async drop(url: string): Promise<void> {
    const version = this.versions.get(url);
    if (version) await removeFiles([this.remove(url, version)]);
  }

  /** Stops keeping every version at and below a URL (deleted). */
  async dropBelow(urlPrefix: string): Promise<void> {
    const gone: KeptVersion[] = [];
    for (const [url, version] of this.versions) if (url.startsWith(urlPrefix)) gone.push(this.remove(url, version));
    await removeFiles(gone);
  }

  private async add(url: string, version: KeptVersion): Promise<void> {
    const gone: KeptVersion[] = [];
    const earlier = this.versions.get(url);
    if (earlier) gone.push(this.remove(url, earlier));
    this.versions.set(url, version);
    this.bytes += version.size;
    for (const [key, old] of this.versions) {
      if (this.bytes <= KEEP_BYTES && this.versions.size <= KEEP_VERSIONS && Date.now() - old.kept < KEEP_MS) break;
      gone.push(this.remove(key, old));
    }
    this.expireLater();
    await removeFiles(gone);
  }

  /** Takes a version out of the table (if it is still the one kept for `url`); its file is the caller's to remove. */
  private remove(url: string, version: KeptVersion): KeptVersion {
    if (this.versions.get(url) === version) {
      this.versions.delete(url);
      this.bytes -= version.size;
    }
    return version;
  }

  /** Removes versions older than KEEP_MS also while no request comes; the timer does not hold the process. */
  private expireLater(): void {
    if (this.expiry || this.versions.size === 0) return;
    this.expiry = setTimeout(() => {
      this.expiry = undefined;
      const gone: KeptVersion[] = [];
      for (const [url, version] of this.versions) if (Date.now() - version.kept >= KEEP_MS) gone.push(this.remove(url, version));
      void removeFiles(gone).then(() => this.expireLater());
    }, KEEP_MS);
    this.expiry.unref();
  }
}

/** Removes the files of versions no longer kept. */
async function removeFiles(versions: readonly KeptVersion[]): Promise<void> {
  await Promise.all(versions.map((v) => fs.rm(v.file, { force: true }).catch(() => undefined)));
}
