import { ServiceError } from '../../errors.js';

/** Coordinates and sizes are bounded so they always print as plain PDF numbers. */
const COORDINATE = { type: 'number', minimum: -1_000_000, maximum: 1_000_000 } as const;

/** Parameter schemas both stamp actions share. */
export const STAMP_PARAM_SCHEMAS = {
  x: { ...COORDINATE, description: 'Points from the origin of the page\'s default user space (unrotated, as the page\'s MediaBox counts)' },
  y: { ...COORDINATE, description: 'Points upwards from the origin of the page\'s default user space' },
  rotation: { ...COORDINATE, default: 0, description: 'Degrees, counter-clockwise, about (x, y)' },
  transparency: { type: 'number', minimum: 0, maximum: 1, description: '0 opaque (default) to 1 invisible; or give opacity instead' },
  opacity: { type: 'number', minimum: 0, maximum: 1, description: '1 opaque (default) to 0 invisible: 1 - transparency; not together with transparency' },
  pageIndex: { type: 'integer', description: 'Zero-based page to stamp; absent or -1: every page' },
} as const;

/** The one transparency the engine takes, from either form the client may give. */
export function transparencyOf(params: { transparency?: number; opacity?: number }, action: string): number {
  if (params.transparency !== undefined && params.opacity !== undefined) {
    throw new ServiceError('VALIDATION_FAILED', `${action}: give transparency or opacity, not both (opacity is 1 - transparency)`);
  }
  return params.opacity !== undefined ? 1 - params.opacity : (params.transparency ?? 0);
}
