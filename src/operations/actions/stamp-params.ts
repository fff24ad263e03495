import { ServiceError } from '../../errors.js';
import { chooseFont, FONT_NAMES, FONT_STYLES } from '../../engine/models.js';

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

/** The text stamp's font and colour parameters, which page numbers take too. */
export const TEXT_PARAM_SCHEMAS = {
  fontName: { type: 'string', minLength: 1, maxLength: 100, default: 'Helvetica', description: `One of ${FONT_NAMES.join(', ')} (case does not matter)` },
  fontStyle: { type: 'string', enum: [...FONT_STYLES], default: 'plain', description: 'Added to the style the font name has' },
  fontSize: { type: 'number', exclusiveMinimum: 0, maximum: 10_000, default: 12, description: 'Points' },
  color: { type: 'integer', minimum: 0, maximum: 0xffffff, default: 0, description: 'Fill colour as an integer 0xRRGGBB (black by default)' },
} as const;

/** 400 UNKNOWN_FONT, listing the fonts, for a fontName the service does not have. */
export function checkFont(params: { fontName: string; fontStyle: (typeof FONT_STYLES)[number] }): void {
  if (!chooseFont(params.fontName, params.fontStyle)) {
    throw new ServiceError('UNKNOWN_FONT', `Unknown fontName "${params.fontName.slice(0, 100)}". Available fonts: ${FONT_NAMES.join(', ')}`, { fonts: FONT_NAMES });
  }
}
