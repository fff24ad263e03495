/**
 * Redaction in the viewer (docs/redaction.md): search marks every match as a Redact annotation (POST
 * .../annotations/redaction), the marks are reviewed over the pages and in a list (one removed with DELETE
 * .../annotations/{name}), and ApplyRedactionsAction applies them after a warning that says, in the API's own words,
 * that the earlier versions are purged. Every write has If-Match; the page is read again afterwards.
 */
import { useEffect, useState } from 'preact/hooks';
import { loadActions } from './actions.tsx';
import type { Annotation } from './annotate.tsx';
import { read, write } from './pageedit.ts';
import { viewHref } from './route.ts';

type Run = (done: string, act: (etag: string) => Promise<string | void>) => Promise<void>;

/** What the service's description says of keepVersions, read at run time; this text if it says nothing. */
const FALLBACK_WARNING = 'Keep the earlier versions of the document, which still hold the redacted text (default: they are removed)';

export function RedactPanel({ doc, revision, busy, run }: { doc: string; revision: number; busy: boolean; run: Run }) {
  const [search, setSearch] = useState('');
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [wholeWord, setWholeWord] = useState(false);
  const [marks, setMarks] = useState<Annotation[]>([]);
  const [keepVersions, setKeepVersions] = useState(false);
  const [asking, setAsking] = useState(false);
  const [keepText, setKeepText] = useState(FALLBACK_WARNING);
  const [error, setError] = useState('');

  useEffect(() => {
    void read<{ annotations: Annotation[] }>(doc, '/annotations?subtype=redact').then((answer) => setMarks(answer.annotations), (err: unknown) => setError(String(err)));
  }, [doc, revision]);
  useEffect(() => {
    void loadActions().then((actions) => {
      const schema = actions.find((a) => a.name === 'ApplyRedactionsAction')?.schema;
      const said = schema?.properties?.['keepVersions']?.description;
      if (said) setKeepText(said);
    }, () => undefined);
  }, []);

  return (
    <section class="redact" aria-labelledby="redact-title">
      <h2 id="redact-title">Redact</h2>
      <form class="inline" onSubmit={(event) => {
        event.preventDefault();
        void run('', async (etag) => {
          const answer = await write(doc, '/annotations/redaction', etag, { method: 'POST', body: JSON.stringify({ searchText: search, caseSensitive, wholeWord }), contentType: 'application/json' }) as { count: number };
          return answer.count === 0 ? `No match for "${search}": nothing marked` : `${answer.count} ${answer.count === 1 ? 'match' : 'matches'} of "${search}" marked for redaction`;
        });
      }}>
        <label for="redact-search">Text to redact</label>
        <input id="redact-search" required value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
        <label class="check"><input type="checkbox" checked={caseSensitive} onChange={(event) => setCaseSensitive(event.currentTarget.checked)} />Match case</label>
        <label class="check"><input type="checkbox" checked={wholeWord} onChange={(event) => setWholeWord(event.currentTarget.checked)} />Whole words</label>
        <button type="submit" disabled={busy}>Find and mark</button>
      </form>
      {error && <p role="alert" class="error">{error}</p>}
      <h3>Marks ({marks.length})</h3>
      {marks.length === 0 ? <p class="note">No redaction marks in this document.</p> : (
        <ul class="annotation-list" data-testid="redaction-marks">
          {marks.map((mark) => (
            <li key={mark.name}>
              <a href={viewHref(doc, mark.pageIndex + 1)}>Page {mark.pageIndex + 1}</a> <span>{mark.name}</span>{mark.contents && <span> ({mark.contents})</span>}{' '}
              <button type="button" class="small" aria-label={`Remove the mark ${mark.name} on page ${mark.pageIndex + 1}`} disabled={busy} onClick={() => void run(`Mark ${mark.name} removed`, async (etag) => {
                await write(doc, `/annotations/${encodeURIComponent(mark.name)}`, etag, { method: 'DELETE' });
              })}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      {marks.length > 0 && (!asking ? (
        <button type="button" class="danger" disabled={busy} onClick={() => setAsking(true)}>Apply redactions…</button>
      ) : (
        <div class="warning" role="group" aria-labelledby="apply-warning" onKeyDown={(event) => { if (event.key === 'Escape') setAsking(false); }}>
          <p id="apply-warning"><strong>Applying removes the text, images and drawings under the {marks.length} {marks.length === 1 ? 'mark' : 'marks'} for good.</strong></p>
          <p data-testid="purge-warning">Earlier versions: {keepText}.</p>
          <label class="check"><input type="checkbox" checked={keepVersions} onChange={(event) => setKeepVersions(event.currentTarget.checked)} />Keep the earlier versions</label>
          <div class="inline">
            <button type="button" class="danger" disabled={busy} onClick={() => {
              setAsking(false);
              void run('', async (etag) => {
                const answer = await write(doc, '', etag, { method: 'POST', body: JSON.stringify({ ApplyRedactionsAction: keepVersions ? { keepVersions: true } : {} }), contentType: 'application/json' }) as { report?: { applied?: string[] }; versionsPurged?: number };
                const purged = answer.versionsPurged !== undefined ? ` ${answer.versionsPurged} earlier ${answer.versionsPurged === 1 ? 'version' : 'versions'} removed.` : '';
                return `Redactions applied: ${answer.report?.applied?.length ?? 0}.${purged} The page was reloaded.`;
              });
            }}>Yes, apply</button>
            <button type="button" onClick={() => setAsking(false)}>Cancel</button>
          </div>
        </div>
      ))}
    </section>
  );
}
