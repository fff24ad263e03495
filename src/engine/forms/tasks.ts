/** Form field tasks: listing, setting and resetting fields, field data export and import, flattening fields. */
import { listFields, resetFields, setFieldValue } from './fields.js';
import { exportFields, importFields } from './exchange.js';
// Fields are flattened as widget annotations, with the annotations' flattening code.
import { flattenFields } from './flatten.js';

export const formTasks = { listFields, setFieldValue, resetFields, exportFields, importFields, flattenFields };
