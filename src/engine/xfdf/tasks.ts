/** XFDF and FDF tasks: annotations exported and imported in both formats, and field data files parsed. */
import { exportAnnotationsXfdf } from './export.js';
import { importAnnotationsXfdf } from './import.js';
import { exportAnnotationsFdf, importAnnotationsFdf } from './fdf-transfer.js';
import { parseFieldData } from './field-data.js';

export const xfdfTasks = { exportAnnotationsXfdf, importAnnotationsXfdf, exportAnnotationsFdf, importAnnotationsFdf, parseFieldData };
