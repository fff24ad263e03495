import { checkToolOutput } from '../../tool-output.js';
import { PDF_TYPE } from '../pdf.js';
import type { Converter } from '../types.js';
import { convertOffice } from './convert.js';
import { OFFICE_CONTAINERS, OFFICE_FORMATS, officeContainerOf, officeFormatOf, type OfficeFormat, officeTextAsUtf8 } from './formats.js';

/**
 * Each Office format's media type (the first) and the other names clients send for it, and its extensions. A
 * declared type says which format the content must be; the content decides (formats.ts).
 */
const OFFICE_TYPES: Readonly<Record<OfficeFormat, { types: readonly string[]; extensions: readonly string[] }>> = {
  doc: { types: ['application/msword'], extensions: ['doc'] },
  docx: {
    types: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.template'],
    extensions: ['docx', 'dotx'],
  },
  docm: { types: ['application/vnd.ms-word.document.macroenabled.12'], extensions: ['docm'] },
  odt: { types: ['application/vnd.oasis.opendocument.text'], extensions: ['odt'] },
  fodt: { types: ['application/vnd.oasis.opendocument.text-flat-xml'], extensions: ['fodt'] },
  rtf: { types: ['application/rtf', 'text/rtf'], extensions: ['rtf'] },
  txt: { types: ['text/plain'], extensions: ['txt'] },
  xls: { types: ['application/vnd.ms-excel'], extensions: ['xls'] },
  xlsx: { types: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], extensions: ['xlsx'] },
  xlsm: { types: ['application/vnd.ms-excel.sheet.macroenabled.12'], extensions: ['xlsm'] },
  ods: { types: ['application/vnd.oasis.opendocument.spreadsheet'], extensions: ['ods'] },
  fods: { types: ['application/vnd.oasis.opendocument.spreadsheet-flat-xml'], extensions: ['fods'] },
  csv: { types: ['text/csv'], extensions: ['csv'] },
  ppt: { types: ['application/vnd.ms-powerpoint'], extensions: ['ppt'] },
  pptx: { types: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'], extensions: ['pptx'] },
  pptm: { types: ['application/vnd.ms-powerpoint.presentation.macroenabled.12'], extensions: ['pptm'] },
  odp: { types: ['application/vnd.oasis.opendocument.presentation'], extensions: ['odp'] },
  fodp: { types: ['application/vnd.oasis.opendocument.presentation-flat-xml'], extensions: ['fodp'] },
};

/** The Office format a media type declares; undefined for a sniffed container (the content alone decides). */
export function officeFormatOfType(mediaType: string): OfficeFormat | undefined {
  return OFFICE_FORMATS.find((format) => OFFICE_TYPES[format].types.includes(mediaType));
}

/** Word, Excel, PowerPoint, OpenDocument and their flat XML forms, RTF, text and CSV, by LibreOffice (docs/office.md). */
export const officeConverter: Converter = {
  name: 'office',
  takes: {
    kind: 'file',
    mediaTypes: OFFICE_FORMATS.flatMap((format) => OFFICE_TYPES[format].types),
    // Each extension stands for its format's first type.
    extensions: Object.fromEntries(OFFICE_FORMATS.flatMap((format) => OFFICE_TYPES[format].extensions.map((extension) => [extension, OFFICE_TYPES[format].types[0]!]))),
  },
  produces: PDF_TYPE,
  long: true,
  // A container (OLE2, ZIP, RTF, XML); convert tells the format from the whole content.
  sniff: (head) => officeContainerOf(head),
  async convert({ main, mediaType }, { engine, tools, officeOptions, ...run }) {
    // The detection reads the whole package (a ZIP's central directory is at its end), and LibreOffice gets a copy in its run folder.
    const upload = await main.content.read();
    // A package encrypted with Office's default password opens without asking, as in Office and LibreOffice: decrypted
    // first (in a worker: the key derivation takes a second), it is detected and converted as any other.
    const decrypted = officeContainerOf(upload) === OFFICE_CONTAINERS.ole2 ? (await engine.run('decryptOfficeDefault', { bytes: upload })).bytes : null;
    const bytes = decrypted ? Buffer.from(decrypted.buffer, decrypted.byteOffset, decrypted.byteLength) : upload;
    const format = officeFormatOf(bytes, officeFormatOfType(mediaType));
    // Text in any encoding it is accepted in reaches LibreOffice as UTF-8, the one its filter is told to read.
    const input = format === 'txt' || format === 'csv' ? officeTextAsUtf8(bytes)! : bytes;
    const pdf = await convertOffice(tools, engine, { bytes: input, format, options: officeOptions ?? {}, ...run });
    return { content: pdf, mediaType: PDF_TYPE, summary: await checkToolOutput(engine, { program: 'LibreOffice', pdf }, { encrypted: false }) };
  },
};
