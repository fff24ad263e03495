import type { StoredPath } from '../paths.js';
import type { DocumentVersions, Release } from '../store.js';
import type { DavCredentials } from './client.js';
import type { WebDavBackend, WebDavStore } from './store.js';

/**
 * What the retention sweep (src/operations/retention.ts) walks on a DMS, which has no account that sees every folder:
 * each sweep account's view in turn (the accounts named anew at each walk: mapped accounts change), as one store. A
 * document two accounts see is walked once, as the first account that met it in this walk; its versions are read,
 * locked and removed as that account. The trash's expiry runs as each account in turn (an entry another account
 * purged first is no longer there and counts once).
 */
export class WebDavSweep {
  /** The account each document of the current walk was met as (by path): the one that reads and removes its versions. */
  private seenAs = new Map<string, WebDavStore>();

  constructor(
    private readonly backend: WebDavBackend,
    private readonly accounts: () => DavCredentials[],
  ) {}

  private stores(): WebDavStore[] {
    const byName = new Map<string, DavCredentials>();
    for (const a of this.accounts()) if (!byName.has(a.username)) byName.set(a.username, a);
    return [...byName.values()].map((a) => this.backend.forUser(a));
  }

  private storeOf(p: StoredPath): WebDavStore {
    const store = this.seenAs.get(p.toString());
    if (!store) throw new Error(`${p.toString()} was not met by this sweep's walk`);
    return store;
  }

  private versionsOf(p: StoredPath): DocumentVersions {
    return this.storeOf(p).versions!;
  }

  readonly versions: Pick<DocumentVersions, 'documents' | 'list' | 'remove'> = {
    documents: () => this.documents(),
    list: (p, page) => this.versionsOf(p).list(p, page),
    remove: (p, id) => this.versionsOf(p).remove(p, id),
  };

  lock(p: StoredPath): Promise<Release> {
    return this.storeOf(p).lock(p);
  }

  private async *documents(): AsyncIterable<StoredPath> {
    const seen = new Map<string, WebDavStore>();
    this.seenAs = seen;
    for (const store of this.stores()) {
      if (!store.versions) continue;
      for await (const p of store.versions.documents()) {
        if (seen.has(p.toString())) continue;
        seen.set(p.toString(), store);
        yield p;
      }
    }
  }

  readonly trash = {
    expire: async (before: Date): Promise<number> => {
      let purged = 0;
      for (const store of this.stores()) if (store.trash) purged += await store.trash.expire(before);
      return purged;
    },
  };
}
