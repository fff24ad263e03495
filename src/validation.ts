import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ServiceError } from './errors.js';

/**
 * The one Ajv set-up of the service, for route schemas (Fastify's validator
 * compiler) and for bodies Fastify's schema step cannot see (action
 * parameters, JSON parts of multipart requests).
 *
 * Values that are text by nature (XML bodies, query strings, path parameters,
 * headers) are coerced to the schema's types: "90" becomes 90 there. JSON says
 * its types itself, so a JSON value must match its schema exactly: "90" for a
 * number is refused. Which validator runs is decided by where the value came
 * from: a body is coerced only when markTextSourced() was called on it (the
 * XML parser does), everything else in a body is JSON.
 */
// allErrors stays false: with untrusted data it lets one request make the validator list every bad item.
// validateSchema false: checking a schema against JSON Schema's meta-schema first compiles that meta-schema, once per
// Ajv instance: 50 ms of the first request's event loop on an idle machine, 0.4 s at load 20 (issue 38, upload +
// DocumentModel), paid by every process for schemas that are ours and fixed. compileEveryValidator checks every
// schema against the meta-schema instead (test/api/startup.test.ts).
const COMMON = { useDefaults: true, allErrors: false, strict: false, removeAdditional: false, verbose: true, validateSchema: false } as const;
const coercing = addFormats.default(new Ajv({ ...COMMON, coerceTypes: 'array' }));
const exact = addFormats.default(new Ajv({ ...COMMON, coerceTypes: false }));

const textSourced = new WeakSet<object>();
/** The shared schemas (addSharedSchema), checked against the meta-schema by compileEveryValidator. */
const shared: { $id: string }[] = [];

/** Marks a parsed body whose values are all text (XML): it is validated with coercion. */
export function markTextSourced<T>(value: T): T {
  if (typeof value === 'object' && value !== null) textSourced.add(value);
  return value;
}

function isTextSourced(value: unknown): boolean {
  return typeof value === 'object' && value !== null && textSourced.has(value);
}

/** A schema pattern for strings that must hold something besides spaces (a pageRange: empty is not "every page"). */
export const NOT_BLANK = '\\S';
/** A schema pattern for text written into a PDF as a text string: well-formed Unicode, no lone surrogate (Ajv's patterns are Unicode ones). */
export const WELL_FORMED_UNICODE = '^[^\\uD800-\\uDFFF]*$';

/**
 * A schema shared by others through `$ref: '<$id>#'` (a recursive one: an outline item's children are items), known
 * to both validators; the HTTP app adds it to Fastify too, for the OpenAPI description (one component).
 */
export function addSharedSchema(schema: { $id: string }): void {
  for (const ajv of [coercing, exact]) if (!ajv.getSchema(schema.$id)) ajv.addSchema(schema);
  if (!shared.includes(schema)) shared.push(schema);
}

/**
 * The first problem as a sentence naming the field. A misspelt field name
 * ("savepath") is reported as unknown rather than as the missing field it
 * was meant to be: Ajv checks `required` before `additionalProperties`.
 */
export function describeValidationError(errors: readonly ErrorObject[] | null | undefined, label: string, noun = 'field'): string {
  const e = errors?.[0];
  if (!e) return `${label}: invalid`;
  const at = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '';
  const name = (field: string) => [label, at, field].filter(Boolean).join('.');
  const schema = e.parentSchema as { properties?: Record<string, unknown>; additionalProperties?: unknown } | undefined;
  if ((e.keyword === 'required' || e.keyword === 'additionalProperties') && schema?.additionalProperties === false && isPlainObject(e.data)) {
    const known = Object.keys(schema.properties ?? {});
    const unknown = Object.keys(e.data).find((k) => !known.includes(k));
    if (unknown !== undefined) {
      const near = nearestName(unknown, known);
      const knownText = known.length > 0 ? `known ${noun}s: ${known.join(', ')}` : `this takes no ${noun}s`;
      return `${name(unknown.slice(0, 100))}: unknown ${noun}${near ? ` (did you mean ${near}?)` : ''}; ${knownText}`;
    }
  }
  if (e.keyword === 'pattern' && (e.params as { pattern?: string }).pattern === NOT_BLANK) return `${[label, at].filter(Boolean).join('.')}: must not be empty or blank (leave it out instead)`;
  if (e.keyword === 'pattern' && (e.params as { pattern?: string }).pattern === WELL_FORMED_UNICODE) return `${[label, at].filter(Boolean).join('.')}: must be well-formed Unicode (no lone surrogates)`;
  // `not: { required: [a, b] }`: two fields that exclude each other.
  const excluded = e.keyword === 'not' ? (e.schema as { required?: unknown } | undefined)?.required : undefined;
  if (Array.isArray(excluded) && excluded.length === 2) return `${[label, at].filter(Boolean).join('.')}: give ${excluded[0]} or ${excluded[1]}, not both`;
  if (e.keyword === 'required') return `${name((e.params as { missingProperty: string }).missingProperty)}: required field is missing`;
  // A short list of allowed values is named, so that a client sees what it may send (a preflight profile, a format).
  const allowed = e.keyword === 'enum' ? (e.params as { allowedValues?: unknown[] }).allowedValues : undefined;
  if (allowed && allowed.length <= 30) return `${[label, at].filter(Boolean).join('.')}: ${e.message ?? 'invalid'}: ${allowed.map(String).join(', ')}`;
  return `${[label, at].filter(Boolean).join('.')}: ${e.message ?? 'invalid'}`;
}

/**
 * The known name a misspelt one most likely meant: the same but for case, or within a small edit distance
 * (letters swapped, one left out, added or changed: "dip" for dpi, "detials" for details); none when nothing is close.
 */
export function nearestName(given: string, known: readonly string[]): string | undefined {
  const lower = given.toLowerCase();
  if (lower.length > 100) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    // One edit for short names, two from five letters on: more would suggest unrelated names.
    const allowed = Math.min(lower.length, name.length) >= 5 ? 2 : 1;
    if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours count one each. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Validators {
  readonly schema: object;
  coercing(): ValidateFunction;
  exact(): ValidateFunction;
}

/**
 * Both validators of a schema, each compiled when first used. Compiling every route's and action's schema twice at
 * start was a third of the service's start-up CPU (about 0.9 s of Ajv's code generation in a start of about 2.5 s on
 * this 2-core machine), paid again by each of the test suite's many service starts; a request uses one of the two, and
 * a process only the routes it is sent. A schema Ajv cannot compile would fail its first request rather than the start:
 * test/api/startup.test.ts compiles them all (compileEveryValidator) (docs/testing.md, "Where the time goes").
 */
function compileBoth(schema: object): Validators {
  let textValidator: ValidateFunction | undefined;
  let jsonValidator: ValidateFunction | undefined;
  const validators = { schema, coercing: () => (textValidator ??= coercing.compile(schema)), exact: () => (jsonValidator ??= exact.compile(schema)) };
  declared.push(validators);
  return validators;
}

/** Every schema's validators made so far, compiled or not (compileEveryValidator). */
const declared: Validators[] = [];

/**
 * Checks every schema made so far against the meta-schema (which the service's Ajv does not, COMMON) and compiles both
 * its validators: a schema that is no valid JSON Schema, or one Ajv refuses, throws here (a test's check at start).
 */
export function compileEveryValidator(): number {
  const meta = addFormats.default(new Ajv({ ...COMMON, validateSchema: true }));
  for (const schema of shared) if (!meta.validateSchema(schema)) throw new Error(`A shared schema is no valid JSON Schema: ${meta.errorsText(meta.errors)}`);
  for (const validators of declared) {
    if (!meta.validateSchema(validators.schema)) throw new Error(`A schema is no valid JSON Schema: ${meta.errorsText(meta.errors)}\n${JSON.stringify(validators.schema).slice(0, 500)}`);
  }
  return compileValidators();
}

/**
 * Compiles both validators of every schema made so far (a service warmed up at start, start/service.ts: the first
 * request of each route then pays no code generation); the number of schemas.
 */
export function compileValidators(): number {
  for (const validators of declared) {
    validators.coercing();
    validators.exact();
  }
  return declared.length;
}

/**
 * A validator for values outside Fastify's schema step: JSON unless the value
 * was marked text-sourced. Throws 400 VALIDATION_FAILED naming the field.
 */
export function compileValidator<T>(schema: object, label: string): (value: unknown) => T {
  const v = compileBoth(schema);
  return (value) => {
    const validate = isTextSourced(value) ? v.coercing() : v.exact();
    if (validate(value)) return value as T;
    throw new ServiceError('VALIDATION_FAILED', describeValidationError(validate.errors, label));
  };
}

/** What a lazily compiled validator shows Fastify as its schemaEnv (fastifyValidatorCompiler). */
const LAZY_SCHEMA_ENV = Object.freeze({ compiledOnFirstUse: true });

type FastifyValidator = ((data: unknown, cxt?: unknown) => boolean) & { errors?: ErrorObject[] | null; schemaEnv?: unknown };

/**
 * XML has no list of one: a repeated element sent once (`<SignatureField><widget>…</widget></SignatureField>`) parses
 * as an object. Where the schema wants an array of objects, such a value becomes a list of one (Ajv's array coercion
 * covers scalars only). Text-sourced bodies only; found by the conformance run (issue 35 item 22).
 */
function listSingleObjects(schema: unknown, value: unknown): void {
  if (!schema || typeof schema !== 'object' || !value || typeof value !== 'object' || Array.isArray(value)) return;
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  if (!properties) return;
  const record = value as Record<string, unknown>;
  for (const [key, sub] of Object.entries(properties)) {
    if (!(key in record) || !sub || typeof sub !== 'object') continue;
    const property = sub as { type?: unknown; items?: unknown };
    const item = record[key];
    if (property.type === 'array') {
      if (item && typeof item === 'object' && !Array.isArray(item)) record[key] = [item];
      const list = record[key];
      if (Array.isArray(list)) for (const element of list) listSingleObjects(property.items, element);
    } else {
      listSingleObjects(property, item);
    }
  }
}

/**
 * Fastify's validator compiler: query, params and headers are text and are
 * coerced; a body only when it is text-sourced.
 */
export function fastifyValidatorCompiler({ schema, httpPart }: { schema: object; httpPart?: string }): FastifyValidator {
  const v = compileBoth(schema);
  const wrapper: FastifyValidator = (data, cxt) => {
    if (httpPart === 'body' && isTextSourced(data)) listSingleObjects(schema, data);
    const validate = httpPart !== 'body' || isTextSourced(data) ? v.coercing() : v.exact();
    const ok = validate(data, cxt as never) as boolean;
    wrapper.errors = validate.errors ?? null;
    return ok;
  };
  // Fastify hands Ajv functions (those with schemaEnv) the parent object, so a root value can be coerced in place. It
  // only asks whether schemaEnv is there: the validator it would be taken from is not compiled yet.
  wrapper.schemaEnv = LAZY_SCHEMA_ENV;
  return wrapper;
}

/**
 * fastifyValidatorCompiler for a route whose handler validates the body itself (the actions: ActionRunner.parse checks
 * the one action a JSON, XML or multipart body names against that action's schema): the route's body schema then only
 * describes it (OpenAPI), and Fastify checks the path and headers. Fastify's check of the body against every action's
 * schema was thrown away, and its first use compiled that schema on the event loop: 80 ms at load 8 on this 2-core
 * machine, every request behind it waiting (a job's 202 among them; bench/results/issue38-accept-2026-11-29.md).
 */
export function handlerValidatesBody(route: { schema: object; httpPart?: string }): FastifyValidator {
  return route.httpPart === 'body' ? ACCEPT_BODY : fastifyValidatorCompiler(route);
}

const ACCEPT_BODY: FastifyValidator = () => true;
