/**
 * Editing in the viewer (docs/console.md#annotations-form-fields-and-redaction): the page image with layers over it
 * (annotation boxes, form fields, redaction marks), placed by converting PDF user space to the image's pixels
 * (pageedit.ts). Annotations are created, moved and edited through the annotations API's XFDF import (an element whose
 * name exists is written over that annotation in place), deleted one by one, and exported and imported as XFDF or
 * FDF. Every write carries If-Match on the ETag the viewer has; after it the page image of the new version is shown.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Schemas } from './api.ts';
import { ConfirmButton } from './controls.tsx';
import { FieldLayer } from './fields.tsx';
import { ChangedElsewhere, PageGeometry, download, documentUrl, num, read, readState, write, xmlText, type DocState, type PageModel, type Point, type Rect } from './pageedit.ts';
import { RedactPanel } from './redact.tsx';

export type Annotation = Schemas['AnnotationModel'];

/** What can be drawn, with the XFDF element each becomes and its name for a person. */
const TOOLS = {
  select: { label: 'Select and move', element: '' },
  note: { label: 'Note', element: 'text' },
  highlight: { label: 'Highlight', element: 'highlight' },
  freetext: { label: 'Free text', element: 'freetext' },
  rectangle: { label: 'Rectangle', element: 'square' },
  ink: { label: 'Ink', element: 'ink' },
  stamp: { label: 'Stamp', element: 'stamp' },
} as const;
type Tool = keyof typeof TOOLS;
const KEYBOARD_TOOLS = ['note', 'rectangle', 'highlight', 'freetext', 'stamp'] as const;
/** Subtypes drawn as boxes: the page's own furniture (popups, links, form widgets) is left to the image and the form layer. */
const HIDDEN = new Set(['Popup', 'Link', 'Widget']);
const STAMPS = ['Approved', 'Draft', 'Confidential', 'Final', 'NotApproved', 'ForComment'];
export type Mode = 'annotate' | 'form' | 'redact';

/** A name for a new annotation, unique enough in a document (the service refuses nothing: a clash would update). */
function newName(): string {
  return `console-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

const XFDF_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots>';
const XFDF_CLOSE = '</annots></xfdf>';

/** The XFDF element of a new annotation (docs/annotations.md: attributes in PDF user space). */
export function newAnnotationXfdf(tool: Exclude<Tool, 'select'>, pageIndex: number, rect: Rect, contents: string, ink: Point[] = [], stamp = 'Approved'): string {
  const x2 = rect.x + rect.width;
  const y2 = rect.y + rect.height;
  const common = `page="${pageIndex}" rect="${[rect.x, rect.y, x2, y2].map(num).join(',')}" name="${newName()}" date="${pdfDate()}"`;
  const text = contents ? `<contents>${xmlText(contents)}</contents>` : '';
  switch (tool) {
    case 'note': return `<text ${common} color="#FFD400" icon="Comment">${text}</text>`;
    case 'highlight': return `<highlight ${common} color="#FFFF00" coords="${[rect.x, y2, x2, y2, rect.x, rect.y, x2, rect.y].map(num).join(',')}">${text}</highlight>`;
    case 'freetext': return `<freetext ${common}>${text}<defaultappearance>0 0 0 rg /Helv 12 Tf</defaultappearance></freetext>`;
    case 'rectangle': return `<square ${common} color="#D32F2F" width="2">${text}</square>`;
    case 'ink': return `<ink ${common} color="#1565C0" width="2">${text}<inklist><gesture>${ink.map((p) => `${num(p.x)},${num(p.y)}`).join(';')}</gesture></inklist></ink>`;
    case 'stamp': return `<stamp ${common} icon="${xmlText(stamp)}" color="#2E7D32">${text}</stamp>`;
  }
}

function pdfDate(): string {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `D:${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`;
}

/** Shift every coordinate list of an XFDF annotation element by (dx, dy): rect, coords, ink, vertices, line ends, callout, popup. */
function shiftElement(element: Element, dx: number, dy: number): void {
  const shiftList = (value: string, separator: RegExp, joiner: string[]) => {
    const numbers = value.split(separator).filter(Boolean).map(Number);
    const parts = numbers.map((n, i) => num(n + (i % 2 === 0 ? dx : dy)));
    return joiner.length ? parts.reduce((all, part, i) => all + (i === 0 ? '' : joiner[i % 2 === 1 ? 0 : 1]) + part, '') : parts.join(',');
  };
  for (const attribute of ['rect', 'coords', 'callout', 'start', 'end']) {
    const value = element.getAttribute(attribute);
    if (value) element.setAttribute(attribute, shiftList(value, /[\s,]+/, []));
  }
  for (const child of Array.from(element.getElementsByTagName('*'))) {
    const name = child.localName.toLowerCase();
    if ((name === 'gesture' || name === 'vertices') && child.textContent) child.textContent = shiftList(child.textContent, /[\s,;]+/, [',', ';']);
    if (name === 'popup' && child.getAttribute('rect')) child.setAttribute('rect', shiftList(child.getAttribute('rect') ?? '', /[\s,]+/, []));
  }
}

/** The XFDF element of one annotation, from the document's own export, changed by `change`, as an import body. */
async function rewriteAnnotation(doc: string, name: string, change: (element: Element) => void): Promise<string> {
  const response = await fetch(`${documentUrl(doc)}/annotations/content`, { credentials: 'same-origin', headers: { Accept: 'application/vnd.adobe.xfdf' } });
  if (!response.ok) throw new Error(`The annotations could not be exported (${response.status})`);
  // DOMParser with an XML type builds an inert document: nothing in it is run or loaded.
  const xfdf = new DOMParser().parseFromString(await response.text(), 'application/xml');
  const annots = Array.from(xfdf.getElementsByTagName('annots')[0]?.children ?? []);
  const element = annots.find((candidate) => candidate.getAttribute('name') === name);
  if (!element) throw new Error(`The annotation ${name} is not in the document's XFDF export`);
  change(element);
  return XFDF_OPEN + new XMLSerializer().serializeToString(element).replace(/ xmlns="[^"]*"/, '') + XFDF_CLOSE;
}

function describe(annotation: Annotation): string {
  const kind = annotation.subtype === 'Text' ? 'Note' : annotation.subtype === 'Square' ? 'Rectangle' : annotation.subtype === 'FreeText' ? 'Free text' : annotation.subtype;
  return annotation.contents ? `${kind}: ${annotation.contents}` : kind;
}

interface EditorProps { doc: string; pageIndex: number; dpi: number; onVersion: (versionId: string | undefined) => void; children: ComponentChildren }

/** The page image (children) with the editing layers over it, and the tools under it. */
export function PageEditor({ doc, pageIndex, dpi, onVersion, children }: EditorProps) {
  const [state, setState] = useState<DocState | null>(null);
  const [page, setPage] = useState<PageModel | null>(null);
  const [annotations, setAnnotations] = useState<Annotation[]>([]);
  const [mode, setMode] = useState<Mode>('annotate');
  const [selected, setSelected] = useState('');
  const [revision, setRevision] = useState(0);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const reload = async (written = false) => {
    try {
      const [current, list] = await Promise.all([readState(doc), read<{ annotations: Annotation[] }>(doc, `/annotations?pageIndex=${pageIndex}`)]);
      setState(current);
      // Before any write the image shown is the current one already: asking again by version would load it twice.
      if (written) onVersion(current.versionId);
      setAnnotations(list.annotations);
      setRevision((n) => n + 1);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  useEffect(() => { void reload(); }, [doc, pageIndex]);
  useEffect(() => {
    void read<{ pages: PageModel[] }>(doc, `/pages?offset=${pageIndex}&limit=1`).then((answer) => setPage(answer.pages[0] ?? null), (err: unknown) => setError(String(err)));
  }, [doc, pageIndex]);

  /** One write: If-Match on the ETag shown; afterwards (or after a 412) everything is read again. */
  const run = async (done: string, act: (etag: string) => Promise<string | void>) => {
    if (!state) return;
    setBusy(true);
    setError('');
    setMessage('');
    let said: string | undefined;
    try {
      said = (await act(state.etag)) || done;
    } catch (err) {
      setError(err instanceof ChangedElsewhere ? err.message : err instanceof Error ? err.message : String(err));
    }
    await reload(true);
    // Said once the page shows the new version, so what the status announces is what is on the screen.
    if (said !== undefined) setMessage(said);
    setBusy(false);
  };

  const geometry = page ? new PageGeometry(page, dpi) : null;
  const importXfdf = (body: string, done: string) => run(done, async (etag) => {
    await write(doc, '/annotations/content', etag, { method: 'POST', body, contentType: 'application/vnd.adobe.xfdf' });
  });
  const shown = annotations.filter((a) => !HIDDEN.has(a.subtype) && (mode === 'redact' ? a.subtype === 'Redact' : a.subtype !== 'Redact'));
  const current = annotations.find((a) => a.name === selected);

  return (
    <div class="editor">
      <div class="modes" role="group" aria-label="What to do on the page">
        {(['annotate', 'form', 'redact'] as const).map((m) => (
          <button key={m} type="button" class="small" aria-pressed={mode === m ? 'true' : 'false'} onClick={() => { setMode(m); setSelected(''); }}>
            {m === 'annotate' ? 'Annotate' : m === 'form' ? 'Fill in the form' : 'Redact'}
          </button>
        ))}
      </div>
      <p role="status" class="status" data-testid="edit-status">{message}</p>
      {error && <p role="alert" class="error">{error}</p>}
      {mode === 'annotate' && geometry ? (
        <AnnotationTools
          geometry={geometry} annotations={shown} selected={current} busy={busy}
          onSelect={setSelected}
          onCreate={(xfdf, what) => importXfdf(XFDF_OPEN + xfdf + XFDF_CLOSE, `${what} added`)}
          onMove={(annotation, dx, dy) => run(`${describe(annotation)} moved`, async (etag) => {
            const body = await rewriteAnnotation(doc, annotation.name, (element) => shiftElement(element, dx, dy));
            await write(doc, '/annotations/content', etag, { method: 'POST', body, contentType: 'application/vnd.adobe.xfdf' });
          })}
          onContents={(annotation, contents) => run('Contents saved', async (etag) => {
            const body = await rewriteAnnotation(doc, annotation.name, (element) => {
              for (const child of Array.from(element.children)) if (/^contents(-richtext)?$/i.test(child.localName)) child.remove();
              const node = element.ownerDocument.createElementNS(element.namespaceURI, 'contents');
              node.textContent = contents;
              element.prepend(node);
            });
            await write(doc, '/annotations/content', etag, { method: 'POST', body, contentType: 'application/vnd.adobe.xfdf' });
          })}
          onDelete={(annotation) => run(`${describe(annotation)} deleted`, async (etag) => {
            await write(doc, `/annotations/${encodeURIComponent(annotation.name)}`, etag, { method: 'DELETE' });
            setSelected('');
          })}
          pageIndex={pageIndex}
        >{children}</AnnotationTools>
      ) : mode === 'form' && geometry && state ? (
        <FieldLayer revision={revision} doc={doc} pageIndex={pageIndex} geometry={geometry} busy={busy} run={run}>{children}</FieldLayer>
      ) : mode === 'redact' && geometry ? (
        <>
          <div class="page-stack">
            {children}
            <div class="layer" aria-label="Redaction marks on this page" role="group">
              {shown.map((mark) => <Box key={mark.name} geometry={geometry} annotation={mark} class="mark" />)}
            </div>
          </div>
          <RedactPanel doc={doc} revision={revision} busy={busy} run={run} />
        </>
      ) : <div class="page-stack">{children}</div>}
      {mode === 'annotate' && <Transfer doc={doc} busy={busy} run={run} />}
    </div>
  );
}

function Box({ geometry, annotation, class: className }: { geometry: PageGeometry; annotation: Annotation; class: string }) {
  if (!annotation.rectangle) return null;
  const box = geometry.toBox(annotation.rectangle);
  return <span class={className} data-name={annotation.name} style={{ left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px` }} />;
}

interface ToolsProps {
  geometry: PageGeometry; annotations: Annotation[]; selected: Annotation | undefined; busy: boolean; pageIndex: number;
  onSelect: (name: string) => void;
  onCreate: (xfdf: string, what: string) => Promise<void>;
  onMove: (annotation: Annotation, dx: number, dy: number) => Promise<void>;
  onContents: (annotation: Annotation, contents: string) => Promise<void>;
  onDelete: (annotation: Annotation) => Promise<void>;
  children: ComponentChildren;
}

function AnnotationTools({ geometry, annotations, selected, busy, pageIndex, onSelect, onCreate, onMove, onContents, onDelete, children }: ToolsProps) {
  const [tool, setTool] = useState<Tool>('select');
  const [contents, setContents] = useState('');
  const [stamp, setStamp] = useState(STAMPS[0]!);
  const [drag, setDrag] = useState<{ start: Point; now: Point; points: Point[]; moving?: Annotation } | null>(null);
  const layer = useRef<HTMLDivElement>(null);
  const at = (event: PointerEvent): Point => {
    const bounds = layer.current!.getBoundingClientRect();
    return { x: event.clientX - bounds.left, y: event.clientY - bounds.top };
  };

  const create = (kind: Exclude<Tool, 'select'>, rect: Rect, ink: Point[] = []) => onCreate(newAnnotationXfdf(kind, pageIndex, rect, contents, ink, stamp), TOOLS[kind].label);

  const finish = (event: PointerEvent) => {
    if (!drag) return;
    const end = at(event);
    setDrag(null);
    if (drag.moving) {
      const a = geometry.toUser(drag.start);
      const b = geometry.toUser(end);
      if (Math.hypot(end.x - drag.start.x, end.y - drag.start.y) >= 3) void onMove(drag.moving, b.x - a.x, b.y - a.y);
      return;
    }
    if (tool === 'select') return;
    let rect = geometry.toRect(drag.start, end);
    // A click (no drag) places the default size there: a note's icon, or a box of 150 x 40 points.
    if (rect.width < 4 && rect.height < 4) {
      const p = geometry.toUser(drag.start);
      const [w, h] = tool === 'note' ? [20, 20] : [150, 40];
      rect = { x: p.x, y: p.y - h, width: w, height: h };
    }
    if (tool === 'ink') {
      const points = [...drag.points, end].map((p) => geometry.toUser(p));
      const xs = points.map((p) => p.x);
      const ys = points.map((p) => p.y);
      rect = { x: Math.min(...xs) - 2, y: Math.min(...ys) - 2, width: Math.max(...xs) - Math.min(...xs) + 4, height: Math.max(...ys) - Math.min(...ys) + 4 };
      void create('ink', rect, points);
    } else void create(tool, rect);
  };

  const preview = drag && !drag.moving && tool !== 'select' ? {
    left: Math.min(drag.start.x, drag.now.x), top: Math.min(drag.start.y, drag.now.y), width: Math.abs(drag.now.x - drag.start.x), height: Math.abs(drag.now.y - drag.start.y),
  } : null;
  const offset = drag?.moving ? { x: drag.now.x - drag.start.x, y: drag.now.y - drag.start.y } : null;

  return (
    <>
      <div class="tools" role="toolbar" aria-label="Annotation tools">
        <fieldset class="inline">
          <legend>Tool</legend>
          {(Object.keys(TOOLS) as Tool[]).map((t) => (
            <label key={t} class="check"><input type="radio" name="annotation-tool" checked={tool === t} onChange={() => setTool(t)} />{TOOLS[t].label}</label>
          ))}
        </fieldset>
        <div class="inline">
          <label for="new-contents">Text of new annotations</label>
          <input id="new-contents" value={contents} onInput={(event) => setContents(event.currentTarget.value)} />
          <label for="stamp-name">Stamp</label>
          <select id="stamp-name" value={stamp} onChange={(event) => setStamp(event.currentTarget.value)}>
            {STAMPS.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </div>
      </div>
      <div class="page-stack">
        {children}
        <div
          ref={layer}
          class={`layer draw-${tool}`}
          data-testid="annotation-layer"
          role="group"
          aria-label="Annotations on this page"
          aria-busy={busy ? 'true' : 'false'}
          onPointerDown={(event) => {
            if (tool === 'select' || busy || event.button !== 0) return;
            event.currentTarget.setPointerCapture(event.pointerId);
            const p = at(event);
            setDrag({ start: p, now: p, points: [p] });
          }}
          onPointerMove={(event) => { if (drag) { const p = at(event); setDrag({ ...drag, now: p, points: tool === 'ink' && !drag.moving ? [...drag.points, p] : drag.points }); } }}
          onPointerUp={finish}
        >
          {annotations.map((annotation) => {
            if (!annotation.rectangle) return null;
            const box = geometry.toBox(annotation.rectangle);
            const moving = offset && drag?.moving?.name === annotation.name ? offset : { x: 0, y: 0 };
            return (
              <button
                key={annotation.name}
                type="button"
                class="annot"
                data-name={annotation.name}
                aria-pressed={selected?.name === annotation.name ? 'true' : 'false'}
                aria-label={describe(annotation)}
                style={{ left: `${box.left + moving.x}px`, top: `${box.top + moving.y}px`, width: `${Math.max(box.width, 8)}px`, height: `${Math.max(box.height, 8)}px` }}
                onClick={() => onSelect(annotation.name)}
                onPointerDown={(event) => {
                  if (tool !== 'select' || busy || event.button !== 0) return;
                  event.stopPropagation();
                  onSelect(annotation.name);
                  layer.current!.setPointerCapture(event.pointerId);
                  const p = at(event);
                  setDrag({ start: p, now: p, points: [], moving: annotation });
                }}
              />
            );
          })}
          {preview && <span class="preview" style={{ left: `${preview.left}px`, top: `${preview.top}px`, width: `${preview.width}px`, height: `${preview.height}px` }} />}
        </div>
      </div>
      {selected && <Selected key={`${selected.name} ${selected.contents ?? ''} ${JSON.stringify(selected.rectangle)}`} annotation={selected} busy={busy} onContents={onContents} onMove={onMove} onDelete={onDelete} />}
      <KeyboardCreate busy={busy} onCreate={(kind, rect, text) => onCreate(newAnnotationXfdf(kind, pageIndex, rect, text, [], stamp), TOOLS[kind].label)} />
      <AnnotationList annotations={annotations} selected={selected} onSelect={onSelect} />
    </>
  );
}

/** The selected annotation: its contents edited, moved to a position typed in, or deleted. */
function Selected({ annotation, busy, onContents, onMove, onDelete }: { annotation: Annotation; busy: boolean } & Pick<ToolsProps, 'onContents' | 'onMove' | 'onDelete'>) {
  const [text, setText] = useState(annotation.contents ?? '');
  const rect = annotation.rectangle;
  const [x, setX] = useState(rect ? num(rect.x) : '0');
  const [y, setY] = useState(rect ? num(rect.y) : '0');
  return (
    <section class="selected" aria-labelledby="selected-title">
      <h2 id="selected-title">Selected: <span data-testid="selected-name">{describe(annotation)}</span></h2>
      <form class="inline" onSubmit={(event) => { event.preventDefault(); void onContents(annotation, text); }}>
        <label for="annotation-contents">Contents</label>
        <textarea id="annotation-contents" rows={2} value={text} onInput={(event) => setText(event.currentTarget.value)} />
        <button type="submit" disabled={busy}>Save contents</button>
      </form>
      {rect && (
        <form class="inline" onSubmit={(event) => { event.preventDefault(); void onMove(annotation, Number(x) - rect.x, Number(y) - rect.y); }}>
          <label for="move-x">Lower left x (points)</label>
          <input id="move-x" type="number" step="any" value={x} onInput={(event) => setX(event.currentTarget.value)} />
          <label for="move-y">y (points)</label>
          <input id="move-y" type="number" step="any" value={y} onInput={(event) => setY(event.currentTarget.value)} />
          <button type="submit" disabled={busy}>Move</button>
        </form>
      )}
      <ConfirmButton text="Delete" label={`Delete ${describe(annotation)}`} question="Delete this annotation?" confirmText="Yes, delete" onConfirm={() => onDelete(annotation)} />
    </section>
  );
}

/** Creating without a pointer: the kind, the rectangle in points (user space) and the text. */
function KeyboardCreate({ busy, onCreate }: { busy: boolean; onCreate: (kind: typeof KEYBOARD_TOOLS[number], rect: Rect, text: string) => Promise<void> }) {
  const [kind, setKind] = useState<typeof KEYBOARD_TOOLS[number]>('note');
  const [values, setValues] = useState({ x: '72', y: '700', width: '20', height: '20', text: '' });
  const field = (key: keyof typeof values, label: string) => {
    const onInput = (event: { currentTarget: HTMLInputElement }) => setValues({ ...values, [key]: event.currentTarget.value });
    return (
      <span class="field">
        <label for={`create-${key}`}>{label}</label>
        {key === 'text'
          ? <input id={`create-${key}`} value={values[key]} onInput={onInput} />
          : <input id={`create-${key}`} type="number" step="any" required value={values[key]} onInput={onInput} />}
      </span>
    );
  };
  return (
    <details class="keyboard-create">
      <summary>Add an annotation by its coordinates</summary>
      <form class="inline" onSubmit={(event) => {
        event.preventDefault();
        void onCreate(kind, { x: Number(values.x), y: Number(values.y), width: Number(values.width), height: Number(values.height) }, values.text);
      }}>
        <span class="field">
          <label for="create-kind">Kind</label>
          <select id="create-kind" value={kind} onChange={(event) => setKind(event.currentTarget.value as typeof kind)}>
            {KEYBOARD_TOOLS.map((k) => <option key={k} value={k}>{TOOLS[k].label}</option>)}
          </select>
        </span>
        {field('x', 'x (points from the left)')}{field('y', 'y (points from the bottom)')}{field('width', 'Width (points)')}{field('height', 'Height (points)')}
        {field('text', 'Text')}
        <button type="submit" disabled={busy}>Add annotation</button>
      </form>
    </details>
  );
}

function AnnotationList({ annotations, selected, onSelect }: { annotations: Annotation[]; selected: Annotation | undefined; onSelect: (name: string) => void }) {
  if (annotations.length === 0) return <p class="note">No annotations on this page.</p>;
  return (
    <section aria-labelledby="annotations-title">
      <h2 id="annotations-title">Annotations on this page</h2>
      <ul class="annotation-list">
        {annotations.map((a) => (
          <li key={a.name}>
            <button type="button" class="small" aria-pressed={selected?.name === a.name ? 'true' : 'false'} onClick={() => onSelect(a.name)}>{describe(a)}</button>
            {a.author && <span class="note"> by {a.author}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** XFDF and FDF: the document's annotations downloaded, or a file's imported into it. */
function Transfer({ doc, busy, run }: { doc: string; busy: boolean; run: (done: string, act: (etag: string) => Promise<string | void>) => Promise<void> }) {
  const [error, setError] = useState('');
  const base = doc.split('/').at(-1)!.replace(/\.pdf$/i, '');
  const exportAs = async (format: 'xfdf' | 'fdf') => {
    setError('');
    const response = await fetch(`${documentUrl(doc)}/annotations/content`, {
      credentials: 'same-origin', headers: { Accept: format === 'fdf' ? 'application/vnd.fdf' : 'application/vnd.adobe.xfdf' },
    });
    if (!response.ok) setError(`The export failed (${response.status})`);
    else download(await response.blob(), `${base}.${format}`);
  };
  return (
    <section class="transfer" aria-labelledby="transfer-title">
      <h2 id="transfer-title">Annotations as XFDF or FDF</h2>
      <div class="inline">
        <button type="button" onClick={() => void exportAs('xfdf')}>Export XFDF</button>
        <button type="button" onClick={() => void exportAs('fdf')}>Export FDF</button>
        <label for="annotations-import">Import XFDF or FDF</label>
        <input id="annotations-import" type="file" accept=".xfdf,.fdf,.xml" disabled={busy} onChange={(event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          const fdf = /\.fdf$/i.test(file.name);
          void run('', async (etag) => {
            const answer = await write(doc, '/annotations/content', etag, { method: 'POST', body: file, contentType: fdf ? 'application/vnd.fdf' : 'application/vnd.adobe.xfdf' }) as { created?: string[]; updated?: string[]; warnings?: string[] };
            input.value = '';
            const warnings = answer.warnings?.length ? ` Warnings: ${answer.warnings.join('; ')}` : '';
            return `Imported ${file.name}: ${answer.created?.length ?? 0} created, ${answer.updated?.length ?? 0} updated.${warnings}`;
          });
        }} />
      </div>
      {error && <p role="alert" class="error">{error}</p>}
    </section>
  );
}
