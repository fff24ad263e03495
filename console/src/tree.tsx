import { useEffect, useState } from 'preact/hooks';
import { listFolder, trimPath } from './docaccess.ts';
import { folderHref } from './route.ts';

/** A folder picked as the target of a move or copy: the button's verb and what it does. */
export interface Pick { verb: string; onPick: (folder: string) => void }

interface NodeProps { path: string; name: string; current: string; pick?: Pick | undefined; version: number }

/**
 * One folder of the tree: a button that shows or hides its sub-folders (aria-expanded; loaded when first shown) and a
 * link to the folder. Nested lists of links and buttons, so Tab, Enter and Space are the whole keyboard interface
 * (the simpler of the two WAI-ARIA forms: no roving focus to get wrong). The folders on the way to the one shown
 * start open.
 */
function FolderNode({ path, name, current, pick, version }: NodeProps) {
  const onTheWay = path === '' || current === path || current.startsWith(`${path}/`);
  const [open, setOpen] = useState(onTheWay);
  const [children, setChildren] = useState<string[] | null>(null);
  const [error, setError] = useState('');

  useEffect(() => { if (onTheWay) setOpen(true); }, [onTheWay]);
  useEffect(() => {
    if (!open) return;
    let live = true;
    listFolder(path).then(
      (entries) => { if (live) setChildren(entries.filter((e) => e.type === 'folder').map((e) => trimPath(e.path))); },
      (err: unknown) => { if (live) setError(err instanceof Error ? err.message : String(err)); },
    );
    return () => { live = false; };
  }, [open, path, version]);

  const label = name || 'All documents';
  return (
    <li>
      <span class="tree-row">
        <button type="button" class="tree-toggle small" aria-expanded={open ? 'true' : 'false'} aria-label={`Sub-folders of ${label}`} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        </button>
        <a href={folderHref(path)} aria-current={current === path ? 'page' : undefined}>{label}</a>
        {pick && <button type="button" class="small" aria-label={`${pick.verb} here: ${label}`} onClick={() => pick.onPick(path)}>{pick.verb} here</button>}
      </span>
      {open && error && <p class="error">{error}</p>}
      {open && children && children.length > 0 && (
        <ul>
          {children.map((child) => <FolderNode key={child} path={child} name={child.split('/').at(-1) ?? child} current={current} pick={pick} version={version} />)}
        </ul>
      )}
    </li>
  );
}

/** The folder tree beside the list; with `pick`, each folder also offers "Move here" (or "Copy here"). */
export function FolderTree({ current, pick, version }: { current: string; pick?: Pick | undefined; version: number }) {
  return (
    <nav class="tree" aria-label="Folder tree">
      <ul>
        <FolderNode path="" name="" current={current} pick={pick} version={version} />
      </ul>
    </nav>
  );
}
