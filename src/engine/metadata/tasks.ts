/** Metadata tasks: the Info dictionary, /Lang and XMP read and written together (docs/metadata.md). */
import { readMetadata, readXmp, writeMetadata, writeXmp } from './metadata.js';

export const metadataTasks = { readMetadata, readXmp, writeMetadata, writeXmp };
