/**
 * A form made from a JSON Schema (docs/console.md#actions): the subset the action bodies of the OpenAPI description
 * use — objects, strings (enums, formats, lengths), integers and numbers (bounds, steps), booleans, arrays (of simple
 * items, of enum values as check boxes, of objects), oneOf/anyOf — each field labelled, operable by keyboard, with the
 * schema's description as its help text. Nothing here knows an action: a new action, or a new parameter, appears by
 * itself.
 *
 * The form holds a draft (what the person typed: text for numbers, so "1." is not rewritten while typing); toValue
 * turns it into the JSON body, leaving out every field left empty so that the service applies its defaults.
 */
import type { JSX } from 'preact';

export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  $ref?: string;
}

/** What the person entered: text for strings and numbers, the index of an enum's value, a tick, a list, an object, a oneOf's choice. */
export type Draft = string | boolean | undefined | Draft[] | { [name: string]: Draft } | { choice: number; value: Draft };

type Kind = 'object' | 'array' | 'boolean' | 'integer' | 'number' | 'string' | 'enum' | 'choice';

/** The first type that is not null ("string" for ["string", "null"]). */
function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

function kindOf(schema: JsonSchema): Kind {
  if (schema.oneOf ?? schema.anyOf) return 'choice';
  if (schema.enum) return 'enum';
  if (schema.const !== undefined) return 'enum';
  const type = typeOf(schema);
  if (type === 'object' || schema.properties) return 'object';
  if (type === 'array') return 'array';
  if (type === 'boolean' || type === 'integer' || type === 'number') return type;
  return 'string';
}

function enumValues(schema: JsonSchema): unknown[] {
  return schema.enum ?? (schema.const !== undefined ? [schema.const] : []);
}

function alternatives(schema: JsonSchema): JsonSchema[] {
  return schema.oneOf ?? schema.anyOf ?? [];
}

/** An alternative's name for a person: its title, its const, its one required property, or its type. */
function alternativeName(schema: JsonSchema, index: number): string {
  if (schema.title) return schema.title;
  if (schema.const !== undefined) return String(schema.const);
  if (schema.required?.length) return schema.required.join(', ');
  return typeOf(schema) ?? `Choice ${index + 1}`;
}

function isObjectDraft(draft: Draft): draft is { [name: string]: Draft } {
  return typeof draft === 'object' && draft !== null && !Array.isArray(draft);
}

function isChoiceDraft(draft: Draft): draft is { choice: number; value: Draft } {
  return isObjectDraft(draft) && typeof draft['choice'] === 'number';
}

/** The JSON value of a draft, or undefined when nothing was entered (the field is then left out of the body). */
export function toValue(schema: JsonSchema, draft: Draft): unknown {
  switch (kindOf(schema)) {
    case 'object': {
      if (!isObjectDraft(draft)) return undefined;
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const value = toValue(property, draft[name]);
        if (value !== undefined) out[name] = value;
      }
      return Object.keys(out).length ? out : undefined;
    }
    case 'array': {
      if (!Array.isArray(draft)) return undefined;
      const items = schema.items ?? {};
      // Enum items: the draft holds the indexes ticked.
      const values = kindOf(items) === 'enum'
        ? draft.map((index) => enumValues(items)[Number(index)])
        : draft.map((item) => toValue(items, item)).filter((value) => value !== undefined);
      return values.length ? values : undefined;
    }
    case 'boolean':
      return typeof draft === 'boolean' ? draft : undefined;
    case 'integer':
    case 'number': {
      if (typeof draft !== 'string' || draft.trim() === '') return undefined;
      const number = Number(draft);
      // Not a number: sent as typed, so the service says what is wrong with it.
      return Number.isFinite(number) ? number : draft;
    }
    case 'enum':
      return typeof draft === 'string' && draft !== '' ? enumValues(schema)[Number(draft)] : undefined;
    case 'choice':
      return isChoiceDraft(draft) ? toValue(alternatives(schema)[draft.choice] ?? {}, draft.value) : undefined;
    default:
      return typeof draft === 'string' && draft !== '' ? draft : undefined;
  }
}

/** The bounds and lengths of a field in words, added to its help text (the browser also enforces min, max and length). */
function constraints(schema: JsonSchema): string {
  const parts: string[] = [];
  const low = schema.minimum ?? schema.exclusiveMinimum;
  const high = schema.maximum ?? schema.exclusiveMaximum;
  if (low !== undefined) parts.push(`${schema.exclusiveMinimum !== undefined ? 'more than' : 'at least'} ${low}`);
  if (high !== undefined) parts.push(`${schema.exclusiveMaximum !== undefined ? 'less than' : 'at most'} ${high}`);
  if (schema.minItems !== undefined && schema.minItems > 0) parts.push(`at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  if (schema.default !== undefined && typeof schema.default !== 'object') parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** Ids for labels and help: the field's path, kept to characters an id selector accepts. */
function fieldId(path: string): string {
  return `f-${path.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

const INPUT_TYPES: Record<string, 'email' | 'url' | 'date' | 'datetime-local' | 'time'> = { email: 'email', uri: 'url', url: 'url', date: 'date', 'date-time': 'datetime-local', time: 'time' };

interface FieldProps { schema: JsonSchema; name: string; path: string; required: boolean; draft: Draft; onChange: (draft: Draft) => void }

function Help({ id, schema }: { id: string; schema: JsonSchema }) {
  const text = `${schema.description ?? ''}${constraints(schema)}`.trim();
  return text ? <p class="help" id={`${id}-help`}>{text}</p> : null;
}

function helpId(id: string, schema: JsonSchema): string | undefined {
  return schema.description || constraints(schema) ? `${id}-help` : undefined;
}

/** One field of the form, by its schema's kind; objects and arrays render their members with this same component. */
export function Field({ schema, name, path, required, draft, onChange }: FieldProps): JSX.Element {
  const id = fieldId(path);
  const label = schema.title && schema.title !== name ? `${name} (${schema.title})` : name;
  const mark = required ? <span class="required"> (required)</span> : null;
  const kind = kindOf(schema);

  if (kind === 'object') {
    const value = isObjectDraft(draft) ? draft : {};
    return (
      <fieldset class="object" aria-describedby={helpId(id, schema)}>
        <legend>{label}{mark}</legend>
        <Help id={id} schema={schema} />
        <Fields schema={schema} path={path} draft={value} onChange={onChange} />
      </fieldset>
    );
  }

  if (kind === 'array') {
    const items = schema.items ?? {};
    const list = Array.isArray(draft) ? draft : [];
    if (kindOf(items) === 'enum') {
      // A set of values: one check box each.
      return (
        <fieldset class="checks" aria-describedby={helpId(id, schema)}>
          <legend>{label}{mark}</legend>
          <Help id={id} schema={schema} />
          {enumValues(items).map((value, index) => {
            const checked = list.includes(String(index));
            return (
              <label key={index} class="check">
                <input type="checkbox" checked={checked}
                  onChange={(event) => onChange(event.currentTarget.checked ? [...list, String(index)] : list.filter((i) => i !== String(index)))} />
                {String(value)}
              </label>
            );
          })}
        </fieldset>
      );
    }
    const max = schema.maxItems ?? Infinity;
    return (
      <fieldset class="array" aria-describedby={helpId(id, schema)}>
        <legend>{label}{mark}</legend>
        <Help id={id} schema={schema} />
        <ol>
          {list.map((item, index) => (
            <li key={index}>
              <Field schema={items} name={`${name} ${index + 1}`} path={`${path}.${index}`} required={false} draft={item}
                onChange={(next) => onChange(list.map((old, i) => (i === index ? next : old)))} />
              <button type="button" class="small" onClick={() => onChange(list.filter((_, i) => i !== index))}>Remove {name} {index + 1}</button>
            </li>
          ))}
        </ol>
        <button type="button" class="small" disabled={list.length >= max} onClick={() => onChange([...list, kindOf(items) === 'object' ? {} : undefined])}>Add to {name}</button>
      </fieldset>
    );
  }

  if (kind === 'choice') {
    const options = alternatives(schema);
    const chosen = isChoiceDraft(draft) ? draft : undefined;
    return (
      <fieldset class="choice" aria-describedby={helpId(id, schema)}>
        <legend>{label}{mark}</legend>
        <Help id={id} schema={schema} />
        <div role="radiogroup" aria-label={`${name}: which form`}>
          {!required && (
            <label class="check"><input type="radio" name={id} checked={!chosen} onChange={() => onChange(undefined)} />not given</label>
          )}
          {options.map((option, index) => (
            <label key={index} class="check">
              <input type="radio" name={id} checked={chosen?.choice === index} onChange={() => onChange({ choice: index, value: undefined })} />
              {alternativeName(option, index)}
            </label>
          ))}
        </div>
        {chosen && options[chosen.choice] && kindOf(options[chosen.choice]!) !== 'enum' && (
          <Field schema={options[chosen.choice]!} name={`${name}: ${alternativeName(options[chosen.choice]!, chosen.choice)}`} path={`${path}.${chosen.choice}`}
            required draft={chosen.value} onChange={(value) => onChange({ choice: chosen.choice, value })} />
        )}
      </fieldset>
    );
  }

  if (kind === 'boolean') {
    const fallback = typeof schema.default === 'boolean' ? schema.default : false;
    return (
      <div class="field check-field">
        <input id={id} type="checkbox" checked={typeof draft === 'boolean' ? draft : fallback} aria-describedby={helpId(id, schema)}
          onChange={(event) => onChange(event.currentTarget.checked)} />
        <label for={id}>{label}{mark}</label>
        <Help id={id} schema={schema} />
      </div>
    );
  }

  if (kind === 'enum') {
    const values = enumValues(schema);
    const defaultIndex = values.findIndex((value) => value === schema.default);
    return (
      <div class="field">
        <label for={id}>{label}{mark}</label>
        <select id={id} value={typeof draft === 'string' ? draft : ''} required={required} aria-describedby={helpId(id, schema)}
          onChange={(event) => onChange(event.currentTarget.value)}>
          <option value="">{defaultIndex >= 0 ? `default (${String(values[defaultIndex])})` : required ? 'choose…' : 'not given'}</option>
          {values.map((value, index) => <option key={index} value={String(index)}>{String(value)}</option>)}
        </select>
        <Help id={id} schema={schema} />
      </div>
    );
  }

  const text = typeof draft === 'string' ? draft : '';
  const common = {
    id,
    value: text,
    required,
    'aria-describedby': helpId(id, schema),
    onInput: (event: Event) => onChange((event.currentTarget as HTMLInputElement | HTMLTextAreaElement).value),
  };
  if (kind === 'integer' || kind === 'number') {
    return (
      <div class="field">
        <label for={id}>{label}{mark}</label>
        <input {...common} type="number" inputMode={kind === 'integer' ? 'numeric' : 'decimal'}
          min={schema.minimum} max={schema.maximum} step={schema.multipleOf ?? (kind === 'integer' ? 1 : 'any')}
          placeholder={schema.default !== undefined ? String(schema.default) : undefined} />
        <Help id={id} schema={schema} />
      </div>
    );
  }
  // Long texts (a stamp's lines) get a text area; the rest a one-line input of the format's type.
  const long = (schema.maxLength ?? 0) >= 5000 && !schema.format && !schema.pattern;
  return (
    <div class="field">
      <label for={id}>{label}{mark}</label>
      {long
        ? <textarea {...common} rows={3} minLength={schema.minLength} maxLength={schema.maxLength} />
        : <input {...common} type={(INPUT_TYPES[schema.format ?? ''] ?? 'text') as 'text' /* Preact's typings tie ARIA roles to each type; these all take text */} minLength={schema.minLength} maxLength={schema.maxLength}
            placeholder={typeof schema.default === 'string' ? schema.default : undefined} />}
      <Help id={id} schema={schema} />
    </div>
  );
}

/** The members of an object schema, required ones first. */
export function Fields({ schema, path, draft, onChange }: { schema: JsonSchema; path: string; draft: { [name: string]: Draft }; onChange: (draft: Draft) => void }) {
  const required = new Set(schema.required ?? []);
  const names = Object.keys(schema.properties ?? {}).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  return (
    <>
      {names.map((name) => (
        <Field key={name} schema={schema.properties![name]!} name={name} path={`${path}.${name}`} required={required.has(name)}
          draft={draft[name]} onChange={(value) => onChange({ ...draft, [name]: value })} />
      ))}
    </>
  );
}

/** A schema with its local references ("#/components/schemas/X") replaced by what they name (cycles left as they are). */
export function resolveRefs(schema: unknown, root: unknown, seen: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, root, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as JsonSchema).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/') && !seen.has(ref)) {
    const target = ref.slice(2).split('/').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], root);
    return resolveRefs(target, root, new Set([...seen, ref]));
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolveRefs(value, root, seen)]));
}
