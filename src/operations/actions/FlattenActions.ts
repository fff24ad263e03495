import type { FromSchema } from 'json-schema-to-ts';
import { engineAction } from './engine-action.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

const flattenFieldsSchema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    paintButtons: { type: 'boolean', default: false, description: 'Paint push buttons (default: they are dropped)' },
    paintOnlyImageButtons: { type: 'boolean', default: false, description: 'With paintButtons: only the push buttons that show an image' },
    paintNonPrintableFields: { type: 'boolean', default: false, description: 'Also paint fields without the print flag (default: they are dropped)' },
  },
  additionalProperties: false,
} as const;

/** FlattenFieldsAction: field appearances become page content; the fields and the AcroForm go (docs/fields.md). */
export const FlattenFieldsAction = engineAction<FromSchema<typeof flattenFieldsSchema>, 'flattenFields'>({
  name: 'FlattenFieldsAction',
  target: 'document',
  need: 'edit',
  summary:
    'Paints every form field\'s appearance into its page (generating missing appearances first) and removes the fields and the AcroForm (and XFA). ' +
    'Push buttons are painted only with paintButtons (only those showing an image with paintOnlyImageButtons); fields without the print flag only ' +
    'with paintNonPrintableFields; hidden fields never.',
  schema: flattenFieldsSchema,
  task: 'flattenFields',
  input: ({ own }) => ({ options: own }),
});

const flattenAnnotationsSchema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    paintNonPrintableAnnots: { type: 'boolean', default: false, description: 'Also paint annotations without the print flag (default: they are dropped)' },
    keepLinks: { type: 'boolean', default: true, description: 'Keep link annotations, which draw nothing but navigate (default); false removes them too' },
  },
  additionalProperties: false,
} as const;

/** FlattenAnnotationsAction: annotation appearances become page content; the annotations go (docs/annotations.md). */
export const FlattenAnnotationsAction = engineAction<FromSchema<typeof flattenAnnotationsSchema>, 'flattenAnnotations'>({
  name: 'FlattenAnnotationsAction',
  target: 'document',
  need: 'edit',
  summary:
    'Paints every annotation other than form widgets and links into its page (generating missing appearances first) and removes it; popups are ' +
    'dropped, hidden annotations are not painted, annotations without the print flag only with paintNonPrintableAnnots. Links stay unless keepLinks is false.',
  schema: flattenAnnotationsSchema,
  task: 'flattenAnnotations',
  input: ({ own }) => ({ options: own }),
});
