import type { FromSchema } from 'json-schema-to-ts';

/**
 * The vocabulary of optimisation (docs/optimize.md): the settings an optimize
 * profile holds, their integer codes, and the built-in profiles. Here rather
 * than in http/ because the profile resource (http), its store (operations)
 * and OptimizeAction's inline `profile` and engine work all read the same
 * settings. No MuPDF: main-thread code loads this module.
 */

/** `colorSpace` codes. Which ones a handler accepts is in its schema. */
export const COLOR_SPACES = {
  0: 'keep: the image keeps its colour space (ICC-based ones included)',
  1: 'RGB (DeviceRGB, or sRGB ICC where the image had an ICC profile)',
  2: 'gray (DeviceGray)',
  3: 'CMYK (DeviceCMYK)',
  4: 'bi-level (1 bit per pixel, black and white)',
} as const;

/**
 * `compression` codes. MuPDF.js 1.28 writes JPEG (Pixmap.asJPEG), Flate and,
 * for 1-bit images, CCITT Group 4 (its save encodes unfiltered 1-bit images
 * so), but neither JPEG 2000 nor JBIG2: codes 3 and 5 are kept for those,
 * should the engine learn to write them, and are refused (400) until then.
 */
export const COMPRESSIONS = {
  0: 'keep: the image keeps its filter (re-encoded in it only when it is downsampled or converted)',
  1: 'JPEG (DCTDecode), at jpegQuality; lossy',
  2: 'Flate (lossless)',
  4: 'CCITT Group 4 (lossless; bi-level images only)',
} as const;

/** `downsampling` codes: how an image above the threshold is brought to the target resolution (Ghostscript's DownsampleType). */
export const DOWNSAMPLINGS = {
  0: 'average: each target pixel is the mean of the source pixels it covers',
  1: 'bicubic: interpolated, sharper edges, slower',
  2: 'subsample: the source pixel at the centre (bi-level images, where averaging would make gray)',
} as const;

const codeDescription = (codes: Record<number, string>, allowed: readonly number[]) =>
  allowed.map((code) => `${code} ${codes[code]}`).join('; ');

/** Highest target resolution a profile may ask for; 0 leaves the resolution alone. */
const MAX_PROFILE_DPI = 2400;

const dpi = (fallback: string) =>
  ({
    type: 'integer',
    minimum: 0,
    maximum: MAX_PROFILE_DPI,
    default: 0,
    description:
      `Target resolution in pixels per inch (0 to ${MAX_PROFILE_DPI}; default 0: no downsampling). An image is downsampled only when its effective ` +
      `resolution on the page, from the transform it is drawn with, exceeds 1.5 times this (Ghostscript's threshold). ${fallback}`,
  }) as const;

const downsampling = (fallback: 0 | 2) =>
  ({ type: 'integer', enum: [0, 1, 2], default: fallback, description: `How images are downsampled: ${codeDescription(DOWNSAMPLINGS, [0, 1, 2])}. Default ${fallback}` }) as const;

const jpegQuality = {
  type: 'number',
  minimum: 0,
  maximum: 1,
  default: 0.75,
  description: 'JPEG quality from 0 (smallest) to 1 (best), as IJG quality / 100; used with compression 1 (default 0.75)',
} as const;

/**
 * One image handler's schema: the three differ only in their description,
 * the codes they accept, the bi-level one's downsampling default and dpi hint,
 * and JPEG quality (not for bi-level images, where JPEG does not apply).
 */
function imageHandler<const CS extends readonly number[], const C extends readonly number[], const D extends 0 | 2, const Q extends boolean>(spec: {
  description: string;
  /** How the colorSpace description begins: colour images are converted, the others mostly kept. */
  colorSpaceLead: string;
  colorSpaces: CS;
  colorSpaceNote?: string;
  compressions: C;
  dpiHint?: string;
  downsampling: D;
  jpeg: Q;
}) {
  const properties = {
    colorSpace: {
      type: 'integer',
      enum: spec.colorSpaces,
      default: 0,
      description: `${spec.colorSpaceLead}: ${codeDescription(COLOR_SPACES, spec.colorSpaces)}${spec.colorSpaceNote ?? ''}`,
    },
    compression: { type: 'integer', enum: spec.compressions, default: 0, description: `Compression: ${codeDescription(COMPRESSIONS, spec.compressions)}` },
    dpi: dpi(spec.dpiHint ?? ''),
    downsampling: downsampling(spec.downsampling),
  } as const;
  return {
    type: 'object',
    description: spec.description,
    properties: (spec.jpeg ? { ...properties, jpegQuality } : properties) as Q extends true ? typeof properties & { jpegQuality: typeof jpegQuality } : typeof properties,
    additionalProperties: false,
  } as const;
}

/** colorImageHandler: what happens to colour images (three or more components). */
const colorImageHandler = imageHandler({
  description: 'Colour images (RGB, CMYK, Lab, ICC-based with 3 or more components, indexed colour). Absent: colour images are not changed.',
  colorSpaceLead: 'Colour space to convert to',
  colorSpaces: [0, 1, 2, 3],
  compressions: [0, 1, 2],
  downsampling: 0,
  jpeg: true,
});

/** grayImageHandler: gray images (one component, more than 1 bit). */
const grayImageHandler = imageHandler({
  description: 'Gray images (one component, 2 to 16 bits). Absent: gray images are not changed.',
  colorSpaceLead: 'Colour space',
  colorSpaces: [0, 2],
  compressions: [0, 1, 2],
  downsampling: 0,
  jpeg: true,
});

/** bwImageHandler: bi-level images (1 bit) and image masks. JPEG does not apply to them. */
const bwImageHandler = imageHandler({
  description: 'Bi-level images (1 bit per pixel) and stencil masks. Absent: bi-level images are not changed.',
  colorSpaceLead: 'Colour space',
  colorSpaces: [0, 4],
  colorSpaceNote: ' (0 keeps the colour space and the decode array; 4 writes an image as 1-bit DeviceGray with its decode applied, 0 black; a stencil mask stays a mask with either)',
  compressions: [0, 2, 4],
  dpiHint: 'Scans of text usually keep 300 or more.',
  downsampling: 2,
  jpeg: false,
});

const flag = (fallback: boolean, description: string) => ({ type: 'boolean', default: fallback, description: `${description} (default ${fallback})` }) as const;

/**
 * The settings of an optimize profile: the body of PUT .../optimize-profiles/{name}
 * and OptimizeAction's inline `profile`. Every field is optional; Ajv fills in
 * the defaults, so a stored profile is complete. Unknown fields are refused.
 */
export const OPTIMIZE_SETTINGS_SCHEMA = {
  type: 'object',
  properties: {
    discardAnnotations: flag(false, 'Remove every annotation except links and form fields'),
    discardUnusedResources: flag(true, 'Remove fonts, images and other resources no page, annotation or form uses'),
    mergeDuplicateFonts: flag(true, 'Keep one copy of fonts embedded more than once, and subset embedded fonts to the glyphs used'),
    mergeDuplicateImages: flag(true, 'Keep one copy of identical images'),
    compressObjectsIntoStreams: flag(true, 'Write objects into compressed object streams (PDF 1.5), with maximum Flate'),
    colorImageHandler,
    grayImageHandler,
    bwImageHandler,
  },
  additionalProperties: false,
} as const;

/** A profile's settings as stored and as the engine reads them (defaults filled in by validation). */
export type OptimizeSettings = FromSchema<typeof OPTIMIZE_SETTINGS_SCHEMA>;

/**
 * Ghostscript's presets (gs_pdfwr.ps, 10.0): colour and gray images at 72,
 * 150, 300 and 300 ppi, averaged except prepress (bicubic); bi-level images
 * subsampled at 300 (screen, ebook) or 1200; JPEG with QFactor 0.76, 0.76,
 * 0.4 and 0.15, which Ghostscript passes to libjpeg as a linear scale of
 * 76%, 40% and 15%: IJG quality 62, 62, 80 and 92. screen and ebook convert
 * colour to sRGB as Ghostscript does (ColorConversionStrategy /sRGB); printer
 * and prepress keep colours.
 */
function preset(resolution: number, bwResolution: number, quality: number, options: { rgb: boolean; bicubic: boolean }): OptimizeSettings {
  const method = options.bicubic ? 1 : 0;
  return {
    discardAnnotations: false,
    discardUnusedResources: true,
    mergeDuplicateFonts: true,
    mergeDuplicateImages: true,
    compressObjectsIntoStreams: true,
    colorImageHandler: { colorSpace: options.rgb ? 1 : 0, compression: 1, dpi: resolution, downsampling: method, jpegQuality: quality },
    grayImageHandler: { colorSpace: 0, compression: 1, dpi: resolution, downsampling: method, jpegQuality: quality },
    bwImageHandler: { colorSpace: 0, compression: 0, dpi: bwResolution, downsampling: 2 },
  };
}

/** The built-in, read-only profiles, by name (docs/optimize.md#built-in-profiles). */
export const BUILT_IN_PROFILES: Readonly<Record<string, OptimizeSettings>> = {
  screen: preset(72, 300, 0.62, { rgb: true, bicubic: false }),
  // Ghostscript's quality (QFactor 0.76, IJG 62) as the reference: photographs are written as close to their pixels as
  // its JPEG writes them (issue 35: at 0.92 they were 3.9x its size); the grainy images its AutoFilter keeps lossless are
  // raised until JPEG stops damaging them (quality.ts), which is what 0.92 was for.
  ebook: preset(150, 300, 0.62, { rgb: true, bicubic: false }),
  printer: preset(300, 1200, 0.8, { rgb: false, bicubic: false }),
  prepress: preset(300, 1200, 0.92, { rgb: false, bicubic: true }),
  // No image handler: no image is touched; only lossless object work (deduplication, unused resources, object streams).
  lossless: {
    discardAnnotations: false,
    discardUnusedResources: true,
    mergeDuplicateFonts: true,
    mergeDuplicateImages: true,
    compressObjectsIntoStreams: true,
  },
};

export function isBuiltInProfile(name: string): boolean {
  return Object.hasOwn(BUILT_IN_PROFILES, name);
}

/**
 * The settings with their fields in the schema's order (validation appends the
 * defaults it fills in after the fields given), so that every profile reads
 * the same way in JSON and XML whatever order its request had.
 */
export function canonicalSettings(settings: OptimizeSettings): OptimizeSettings {
  const ordered = (value: Record<string, unknown>, properties: Record<string, unknown>) =>
    Object.fromEntries(Object.keys(properties).filter((key) => value[key] !== undefined).map((key) => [key, value[key]]));
  const out = ordered(settings, OPTIMIZE_SETTINGS_SCHEMA.properties);
  for (const handler of ['colorImageHandler', 'grayImageHandler', 'bwImageHandler'] as const) {
    const value = settings[handler];
    if (value) out[handler] = ordered(value, OPTIMIZE_SETTINGS_SCHEMA.properties[handler].properties);
  }
  return out as OptimizeSettings;
}
