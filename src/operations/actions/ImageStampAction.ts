import type { FromSchema } from 'json-schema-to-ts';
import { ServiceError } from '../../errors.js';
import { type DeclaredImageType, isDeclaredImageType } from '../../engine/models.js';
import type { ActionFile } from './types.js';
import { engineAction } from './engine-action.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';
import { STAMP_PARAM_SCHEMAS, transparencyOf } from './stamp-params.js';

const SIZE = { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 } as const;

/** The image part: the one named `file`, or the only file sent. */
function imagePart(files: ActionFile[]): ActionFile {
  const file = files.find((f) => f.field === 'file') ?? (files.length === 1 ? files[0] : undefined);
  if (!file) {
    throw new ServiceError('MALFORMED_MULTIPART', 'ImageStampAction needs the image (JPEG or PNG) in a multipart part named "file", beside the action JSON in "pageAction"');
  }
  return file;
}

function declaredType(file: ActionFile): DeclaredImageType {
  const type = file.mediaType;
  // application/octet-stream is left to the engine, which looks at the content.
  if (!isDeclaredImageType(type)) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `The stamp image must be image/jpeg or image/png, not ${type.slice(0, 100)}`);
  return type;
}

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    ...STAMP_PARAM_SCHEMAS,
    width: { ...SIZE, description: 'Points; alone, the height follows the aspect ratio' },
    height: { ...SIZE, description: 'Points; alone, the width follows the aspect ratio' },
    scale: { type: 'number', exclusiveMinimum: 0, maximum: 1000, description: 'Of the natural size (1 by default); not with width or height' },
  },
  required: ['x', 'y'],
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/**
 * ImageStampAction: draws a JPEG or PNG image on one page or every page. The
 * image is stored once in the document whatever the number of pages; JPEG
 * data is embedded without recompression.
 */
export const ImageStampAction = engineAction<Params, 'imageStamp', { transparency: ReturnType<typeof transparencyOf>; mediaType: DeclaredImageType }>({
  name: 'ImageStampAction',
  target: 'pages',
  need: 'edit',
  summary:
    'Stamps an image (multipart: this JSON in part "pageAction", a JPEG or PNG in part "file") on a page (pageIndex) or on every page: its lower-left corner at (x, y) ' +
    'in the page\'s default user space, turned rotation degrees counter-clockwise about that corner; width and/or height in points, or scale of its natural size ' +
    '(its own resolution, else 72 dpi). See docs/stamps.md.',
  schema,
  async prepare({ params, files }) {
    if (params.scale !== undefined && (params.width !== undefined || params.height !== undefined)) {
      throw new ServiceError('VALIDATION_FAILED', 'ImageStampAction: give scale, or width and/or height, not both');
    }
    const transparency = transparencyOf(params, 'ImageStampAction');
    const file = imagePart(files);
    return { transparency, mediaType: declaredType(file) };
  },
  task: 'imageStamp',
  input: async ({ own: { opacity: _opacity, ...request }, prepared: { transparency, mediaType }, execute: { files } }) => ({
    image: new Uint8Array(await imagePart(files).content.read()),
    mediaType,
    request: { ...request, transparency },
  }),
  transfer: ({ image }) => [image],
});
