/** Signature tasks: signature fields listed (each signature verified), created and deleted, and fields signed. */
import { listSignatureFields } from './verify.js';
import { createSignatureField, deleteSignatureField } from './fields.js';
import { signField } from './sign.js';

export const signingTasks = { listSignatureFields, createSignatureField, deleteSignatureField, signField };
