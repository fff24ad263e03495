/**
 * Form fields filled in place: an input over each widget of the page (GET .../fields gives every field with its
 * widgets' rectangles in user space), saved one field at a time with PUT .../fields/{name} and If-Match
 * (docs/forms.md#setting-a-value). The service draws the new value into the field's appearance.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Schemas } from './api.ts';
import { read, write, type PageGeometry } from './pageedit.ts';

type Field = Schemas['FieldModel'];
type Run = (done: string, act: (etag: string) => Promise<string | void>) => Promise<void>;

interface Props { doc: string; revision: number; pageIndex: number; geometry: PageGeometry; busy: boolean; run: Run; children: ComponentChildren }

export function FieldLayer({ doc, revision, pageIndex, geometry, busy, run, children }: Props) {
  const [fields, setFields] = useState<Field[] | null>(null);
  const [error, setError] = useState('');
  // Values being saved: shown at once, until the fields are read again after the write.
  const [pending, setPending] = useState<Record<string, string | string[]>>({});
  useEffect(() => {
    void read<{ fields: Field[] }>(doc, '/fields').then((answer) => {
      setFields(answer.fields);
      setPending({});
    }, (err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, [doc, revision]);

  const save = (field: Field, value: string | string[]) => run(`${field.name} saved`, async (etag) => {
    setPending((all) => ({ ...all, [field.name]: value }));
    await write(doc, `/fields/${encodeURIComponent(field.name)}`, etag, { method: 'PUT', body: JSON.stringify({ value }), contentType: 'application/json' });
  });
  const here = (fields ?? []).flatMap((field) => field.widgets.map((widget, index) => ({ field, widget, index }))).filter(({ widget }) => widget.pageIndex === pageIndex);

  return (
    <>
      {error && <p role="alert" class="error">{error}</p>}
      {fields && here.length === 0 && <p class="note">No form fields on this page.</p>}
      <div class="page-stack">
        {children}
        <form class="layer fields" aria-label="Form fields on this page" onSubmit={(event) => event.preventDefault()}>
          {here.map(({ field: stored, widget, index }) => {
            if (!widget.rectangle) return null;
            const field = stored.name in pending ? { ...stored, value: pending[stored.name] } : stored;
            const box = geometry.toBox(widget.rectangle);
            const style = { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px`, fontSize: `${Math.max(8, Math.min(16, box.height * 0.7))}px` };
            const label = field.tooltip ? `${field.tooltip} (${field.name})` : field.name;
            const disabled = busy || field.readOnly === true;
            const key = `${field.name} ${index}`;
            switch (field.type) {
              case 'text':
                return <input key={key} style={style} aria-label={label} value={String(field.value ?? '')} disabled={disabled} maxLength={field.maxLength} onChange={(event) => void save(field, event.currentTarget.value)} />;
              case 'checkbox': {
                const on = field.options?.[0]?.exportValue ?? 'Yes';
                return <input key={key} type="checkbox" style={style} aria-label={label} checked={field.value !== undefined && field.value !== 'Off'} disabled={disabled} onChange={(event) => void save(field, event.currentTarget.checked ? on : 'Off')} />;
              }
              case 'radio': {
                // The nth widget shows the nth on-state (the service lists them in widget order).
                const option = field.options?.[index];
                if (option?.exportValue === undefined) return null;
                const value = option.exportValue;
                return <input key={key} type="radio" name={`field-${field.name}`} style={style} aria-label={`${label}: ${option.displayText ?? value}`} checked={field.value === value} disabled={disabled} onChange={() => void save(field, value)} />;
              }
              case 'combo':
              case 'list': {
                const selected = Array.isArray(field.value) ? field.value : field.value ? [String(field.value)] : [];
                return (
                  <select key={key} style={style} aria-label={label} multiple={field.multiSelect === true} disabled={disabled} onChange={(event) => {
                    const chosen = Array.from(event.currentTarget.selectedOptions).map((o) => o.value);
                    void save(field, field.type === 'list' ? chosen : chosen[0] ?? '');
                  }}>
                    {!field.multiSelect && <option value="" selected={selected.length === 0}>(none)</option>}
                    {(field.options ?? []).map((o) => <option key={o.exportValue} value={o.exportValue} selected={selected.includes(o.exportValue ?? '')}>{o.displayText ?? o.exportValue}</option>)}
                  </select>
                );
              }
              default:
                return null;
            }
          })}
        </form>
      </div>
    </>
  );
}
