/**
 * A form PDF written by hand (not with the engine under test), with one field
 * of each kind the field-data endpoints handle. Every widget is merged with
 * its field except the radio buttons and `person`'s kids, so both shapes of
 * the field tree occur.
 *
 *   comment        text, value "Hello" with an appearance showing it
 *   agree          checkbox, states Yes/Off, off
 *   color          radio group Red/Green/Blue, Green on
 *   country        combo box, options DE, FR and us ("United States"), DE chosen
 *   town           editable combo box, options Berlin and Paris, empty
 *   toppings       multi-select list box cheese/ham/olives, cheese and olives chosen
 *   id             read-only text "42"
 *   person.name    text "Bob" (a kid of the non-terminal field person)
 *   person.email   text, empty
 *   ref            text "R-1" shown by two widgets (kids without /T)
 *   submit         push button
 *   sig            signature field, unsigned
 */
import { PdfObjects } from './pdf-writer.js';
export interface FormPdfOptions {
  /** Sets /NeedAppearances true in the AcroForm. */
  needAppearances?: boolean;
}

const TX = 0;
const READ_ONLY = 1;
const RADIO = 1 << 15;
const NO_TOGGLE_TO_OFF = 1 << 14;
const PUSHBUTTON = 1 << 16;
const COMBO = 1 << 17;
const EDIT = 1 << 18;
const MULTI_SELECT = 1 << 21;

export function makeFormPdf(options: FormPdfOptions = {}): Buffer {
  const pdf = new PdfObjects();
  const form = (w: number, h: number, content: string) => pdf.stream(`/Type /XObject /Subtype /Form /BBox [0 0 ${w} ${h}] /Resources << /Font << /Helv ${font} 0 R >> >>`, content);

  const catalog = pdf.reserve();
  const pages = pdf.reserve();
  const page = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const dingbats = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>');
  const annots: number[] = [];
  const fields: number[] = [];
  const widget = (rect: [number, number, number, number], extra: string) => {
    const n = pdf.add(`<< /Type /Annot /Subtype /Widget /Rect [${rect.join(' ')}] /P ${page} 0 R /F 4 ${extra} >>`);
    annots.push(n);
    return n;
  };
  const da = '/DA (/Helv 12 Tf 0 g)';

  // comment: a text field whose appearance shows its value, so a new value must replace it.
  const commentAp = form(200, 20, '/Tx BMC q BT /Helv 12 Tf 0 g 2 5 Td (Hello) Tj ET Q EMC');
  fields.push(widget([72, 700, 272, 720], `/FT /Tx /T (comment) /V (Hello) ${da} /AP << /N ${commentAp} 0 R >>`));

  const boxOn = form(14, 14, '0 0 1 rg 2 2 10 10 re f');
  const boxOff = form(14, 14, '0 g 0.5 0.5 13 13 re S');
  fields.push(widget([72, 670, 86, 684], `/FT /Btn /T (agree) /V /Off /AS /Off /AP << /N << /Yes ${boxOn} 0 R /Off ${boxOff} 0 R >> /D << /Yes ${boxOn} 0 R /Off ${boxOff} 0 R >> >> /MK << /CA (4) >> /DA (/ZaDb 0 Tf 0 g)`));

  const color = pdf.reserve();
  const radios = ['Red', 'Green', 'Blue'].map((state, i) =>
    widget([72 + i * 30, 640, 86 + i * 30, 654], `/Parent ${color} 0 R /AS /${state === 'Green' ? 'Green' : 'Off'} /AP << /N << /${state} ${boxOn} 0 R /Off ${boxOff} 0 R >> >> /MK << /CA (l) >>`),
  );
  pdf.set(color, `<< /FT /Btn /T (color) /Ff ${RADIO | NO_TOGGLE_TO_OFF} /V /Green /Kids [${radios.map((r) => `${r} 0 R`).join(' ')}] >>`);
  fields.push(color);

  fields.push(widget([72, 600, 272, 620], `/FT /Ch /T (country) /Ff ${COMBO} /Opt [(DE) (FR) [(us) (United States)]] /V (DE) ${da}`));
  fields.push(widget([300, 600, 500, 620], `/FT /Ch /T (town) /Ff ${COMBO | EDIT} /Opt [(Berlin) (Paris)] ${da}`));
  fields.push(widget([72, 520, 272, 580], `/FT /Ch /T (toppings) /Ff ${MULTI_SELECT} /Opt [(cheese) (ham) (olives)] /V [(cheese) (olives)] ${da}`));
  fields.push(widget([72, 480, 272, 500], `/FT /Tx /T (id) /Ff ${READ_ONLY} /V (42) ${da}`));

  const person = pdf.reserve();
  const personName = widget([72, 440, 272, 460], `/FT /Tx /Parent ${person} 0 R /T (name) /V (Bob) ${da}`);
  const personEmail = widget([300, 440, 500, 460], `/FT /Tx /Parent ${person} 0 R /T (email) /Ff ${TX} ${da}`);
  pdf.set(person, `<< /T (person) /Kids [${personName} 0 R ${personEmail} 0 R] >>`);
  fields.push(person);

  const ref = pdf.reserve();
  const refWidgets = [widget([72, 340, 172, 360], `/Parent ${ref} 0 R`), widget([300, 340, 400, 360], `/Parent ${ref} 0 R`)];
  pdf.set(ref, `<< /FT /Tx /T (ref) /V (R-1) ${da} /Kids [${refWidgets.map((w) => `${w} 0 R`).join(' ')}] >>`);
  fields.push(ref);

  fields.push(widget([72, 400, 172, 420], `/FT /Btn /T (submit) /Ff ${PUSHBUTTON} /MK << /CA (Submit) >> ${da}`));
  fields.push(widget([300, 380, 500, 420], '/FT /Sig /T (sig)'));

  const acroForm = pdf.add(`<< /Fields [${fields.map((f) => `${f} 0 R`).join(' ')}] /DR << /Font << /Helv ${font} 0 R /ZaDb ${dingbats} 0 R >> >> /DA (/Helv 0 Tf 0 g)${options.needAppearances ? ' /NeedAppearances true' : ''} >>`);
  const content = pdf.stream('', 'BT /Helv 10 Tf 72 740 Td (A form) Tj ET');
  pdf.set(page, `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /Helv ${font} 0 R >> >> /Contents ${content} 0 R /Annots [${annots.map((a) => `${a} 0 R`).join(' ')}] >>`);
  pdf.set(pages, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
  pdf.set(catalog, `<< /Type /Catalog /Pages ${pages} 0 R /AcroForm ${acroForm} 0 R >>`);

  const id = '<0123456789ABCDEF0123456789ABCDEF>';
  return pdf.finish(`/Root ${catalog} 0 R /ID [${id} ${id}]`);
}
