/** FieldsModel (XML: <Fields>) and FieldModel (XML: <Field>): the fields resource (docs/fields.md). */
import { rectangleSchema } from './common.js';

const value = {
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
} as const;

export const fieldSchema = {
  title: 'FieldModel',
  type: 'object',
  description: 'FieldModel (XML: <Field>): one terminal field',
  properties: {
    name: { type: 'string', description: 'Fully qualified name (partial names joined by ".")' },
    type: { type: 'string', enum: ['text', 'checkbox', 'radio', 'combo', 'list', 'pushbutton', 'signature'] },
    value: { ...value, description: 'Text; a button\'s state ("Off" when off); a combo box\'s export value; a list box\'s selected export values (always an array, single-select too). Absent for push buttons and signatures.' },
    defaultValue: { ...value, description: '/DV, what a reset restores; absent when there is none' },
    options: {
      type: 'array',
      description: 'Choices: export value and display text of each option. Checkboxes and radio buttons: each on-state (displayText) with the value it exports (exportValue).',
      items: { type: 'object', properties: { exportValue: { type: 'string' }, displayText: { type: 'string' } } },
    },
    readOnly: { type: 'boolean' },
    required: { type: 'boolean' },
    noExport: { type: 'boolean' },
    multiline: { type: 'boolean' },
    password: { type: 'boolean' },
    comb: { type: 'boolean' },
    maxLength: { type: 'integer' },
    multiSelect: { type: 'boolean' },
    editable: { type: 'boolean', description: 'A combo box that also takes text of its own' },
    signed: { type: 'boolean', description: 'Signature fields: a signature is in it' },
    tooltip: { type: 'string', description: '/TU' },
    widgets: {
      type: 'array',
      items: { type: 'object', properties: { pageIndex: { type: 'integer', description: '-1 when the widget is on no page' }, rectangle: rectangleSchema } },
    },
  },
  required: ['name', 'type', 'readOnly', 'required', 'noExport', 'widgets'],
} as const;

export const fieldsSchema = {
  title: 'FieldsModel',
  type: 'object',
  description: 'FieldsModel (XML: <Fields> with <field> items): every terminal field in field-tree order',
  properties: {
    fields: { type: 'array', items: fieldSchema },
    hasXfa: { type: 'boolean', description: 'The document also has an XFA form; only its AcroForm part is read and written' },
    warnings: { type: 'array', items: { type: 'string' }, description: 'After a reset: defaults a field could not take' },
  },
  required: ['fields', 'hasXfa'],
} as const;

export const fieldValueSchema = {
  title: 'FieldValue',
  type: 'object',
  description: 'The value to set (XML: <Field><value>…</value></Field>; repeat <value> for a multi-select list)',
  properties: { value: { ...value, description: 'Text; a checkbox or radio state name, its export value or "Off"; a choice\'s export value; a list\'s export values' } },
  required: ['value'],
  additionalProperties: false,
} as const;

const items = { fields: 'field', widgets: 'widget', options: 'option', warnings: 'warning', value: 'value', defaultValue: 'value' };
export const FIELDS_XML = { root: 'Fields', flatten: 'fields', items };
export const FIELD_XML = { root: 'Field', items };
