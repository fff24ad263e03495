/**
 * The font names a text stamp accepts, and the family and style each one
 * stands for. Plain data, so the HTTP side can check a name (and list the
 * choices) without loading the engine.
 */

export const FONT_STYLES = ['plain', 'bold', 'italic', 'bolditalic'] as const;
export type FontStyle = (typeof FONT_STYLES)[number];

/** Helvetica, Times and Courier are the base-14 text faces; DejaVu ships with the service. */
export type FontFamily = 'Helvetica' | 'Times' | 'Courier' | 'Symbol' | 'ZapfDingbats' | 'DejaVuSans' | 'DejaVuSerif' | 'DejaVuSansMono';

export interface FontChoice {
  family: FontFamily;
  bold: boolean;
  italic: boolean;
}

const choice = (family: FontFamily, bold = false, italic = false): FontChoice => ({ family, bold, italic });

/** Every accepted fontName (compared without regard to case). */
const NAMES: Record<string, FontChoice> = {
  Helvetica: choice('Helvetica'),
  'Helvetica-Bold': choice('Helvetica', true),
  'Helvetica-Oblique': choice('Helvetica', false, true),
  'Helvetica-BoldOblique': choice('Helvetica', true, true),
  'Times-Roman': choice('Times'),
  'Times-Bold': choice('Times', true),
  'Times-Italic': choice('Times', false, true),
  'Times-BoldItalic': choice('Times', true, true),
  Courier: choice('Courier'),
  'Courier-Bold': choice('Courier', true),
  'Courier-Oblique': choice('Courier', false, true),
  'Courier-BoldOblique': choice('Courier', true, true),
  Symbol: choice('Symbol'),
  ZapfDingbats: choice('ZapfDingbats'),
  DejaVuSans: choice('DejaVuSans'),
  DejaVuSerif: choice('DejaVuSerif'),
  DejaVuSansMono: choice('DejaVuSansMono'),
};

export const FONT_NAMES: readonly string[] = Object.keys(NAMES);

const BY_LOWER_CASE = new Map(Object.entries(NAMES).map(([name, c]) => [name.toLowerCase(), c]));

/**
 * The family and style for a fontName and a fontStyle, or undefined for an
 * unknown name. A style in the name (Helvetica-Bold) and fontStyle add up:
 * Helvetica-Bold with fontStyle "italic" is bold italic.
 */
export function chooseFont(fontName: string, fontStyle: FontStyle = 'plain'): FontChoice | undefined {
  const named = BY_LOWER_CASE.get(fontName.toLowerCase());
  if (!named) return undefined;
  return {
    family: named.family,
    bold: named.bold || fontStyle === 'bold' || fontStyle === 'bolditalic',
    italic: named.italic || fontStyle === 'italic' || fontStyle === 'bolditalic',
  };
}
