/**
 * Where the console is, in the URL's fragment (#/folders/a/b, #/view?doc=a/b.pdf&page=500): the service serves one
 * page, and every screen can be bookmarked and reloaded.
 */
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { screen: 'folders'; folder: string }
  | { screen: 'view'; doc: string; page: number; versionId?: string }
  | { screen: 'versions'; doc: string }
  | { screen: 'actions'; doc: string; action: string }
  | { screen: 'jobs'; id?: string }
  | { screen: 'account' } | { screen: 'users' } | { screen: 'trash' };

/** Screens without parameters: their name is the whole fragment (#/trash). */
const PLAIN_SCREENS = ['account', 'users', 'trash'] as const;

export function parseRoute(hash: string): Route {
  const fragment = hash.replace(/^#\/?/, '');
  if (fragment.startsWith('view?')) {
    const query = new URLSearchParams(fragment.slice('view?'.length));
    const page = Number.parseInt(query.get('page') ?? '1', 10);
    const versionId = query.get('versionId');
    return { screen: 'view', doc: query.get('doc') ?? '', page: Number.isFinite(page) && page > 0 ? page : 1, ...(versionId ? { versionId } : {}) };
  }
  if (fragment.startsWith('versions?')) return { screen: 'versions', doc: new URLSearchParams(fragment.slice('versions?'.length)).get('doc') ?? '' };
  const plain = PLAIN_SCREENS.find((screen) => fragment === screen);
  if (plain) return { screen: plain };
  if (fragment.startsWith('actions?')) {
    const query = new URLSearchParams(fragment.slice('actions?'.length));
    return { screen: 'actions', doc: query.get('doc') ?? '', action: query.get('action') ?? '' };
  }
  if (fragment === 'jobs' || fragment.startsWith('jobs?')) {
    const id = new URLSearchParams(fragment.slice('jobs?'.length)).get('id');
    return id ? { screen: 'jobs', id } : { screen: 'jobs' };
  }
  const folder = fragment.startsWith('folders') ? fragment.slice('folders'.length).replace(/^\/+|\/+$/g, '') : '';
  return { screen: 'folders', folder: folder.split('/').map((segment) => safeDecode(segment)).join('/') };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function folderHref(folder: string): string {
  return `#/folders/${folder.split('/').filter(Boolean).map(encodeURIComponent).join('/')}`;
}

export function viewHref(doc: string, page = 1, versionId?: string): string {
  return `#/view?${new URLSearchParams({ doc, page: String(page), ...(versionId ? { versionId } : {}) }).toString()}`;
}

export function versionsHref(doc: string): string {
  return `#/versions?${new URLSearchParams({ doc }).toString()}`;
}

export function actionsHref(doc: string, action = ''): string {
  return `#/actions?${new URLSearchParams(action ? { doc, action } : { doc }).toString()}`;
}

/** The jobs list, or one job's live view. */
export function jobHref(id?: string): string {
  return id ? `#/jobs?${new URLSearchParams({ id }).toString()}` : '#/jobs';
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
