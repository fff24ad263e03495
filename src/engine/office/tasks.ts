/** Office tasks: what an Office upload needs before LibreOffice converts it. */
import { decryptOfficeDefault } from './decrypt.js';

export const officeTasks = { decryptOfficeDefault };
