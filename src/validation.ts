import { Ajv } from 'ajv';
import { ServiceError } from './errors.js';

/**
 * Validation of bodies that Fastify's schema step cannot see (action
 * parameters, JSON parts of multipart requests), with the same rules: types
 * coerced as XML and form values need, defaults applied, the first problem
 * reported as 400 VALIDATION_FAILED naming the field.
 */
const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false, strict: false });

export function compileValidator<T>(schema: object, label: string): (value: unknown) => T {
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return value as T;
    const e = validate.errors?.[0];
    const params = (e?.params ?? {}) as { missingProperty?: string; additionalProperty?: string };
    const field = e?.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : (params.missingProperty ?? params.additionalProperty);
    throw new ServiceError('VALIDATION_FAILED', `${label}${field ? `.${field}` : ''}: ${e?.message ?? 'invalid'}`);
  };
}
