/**
 * The simple-font encodings a font dictionary may name (ISO 32000-1, Annex D), as 256 glyph names each (""
 * for an unused code), for the standard-14 substitutes (fonts.ts): which glyph each code draws, and so its width.
 * Generated once from Ghostscript's tables (its WinAnsi maps the unused codes to bullet, as Acrobat does).
 */
export const standard: readonly string[] = splitNames(
  '- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - space exclam quotedbl numbersign dollar ' +
  'percent ampersand quoteright parenleft parenright asterisk plus comma hyphen period slash zero one two three ' +
  'four five six seven eight nine colon semicolon less equal greater question at A B C D E F G H I J K L M N O P ' +
  'Q R S T U V W X Y Z bracketleft backslash bracketright asciicircum underscore quoteleft a b c d e f g h i j k ' +
  'l m n o p q r s t u v w x y z braceleft bar braceright asciitilde - - - - - - - - - - - - - - - - - - - - - - ' +
  '- - - - - - - - - - - - exclamdown cent sterling fraction yen florin section currency quotesingle ' +
  'quotedblleft guillemotleft guilsinglleft guilsinglright fi fl - endash dagger daggerdbl periodcentered - ' +
  'paragraph bullet quotesinglbase quotedblbase quotedblright guillemotright ellipsis perthousand - questiondown ' +
  '- grave acute circumflex tilde macron breve dotaccent dieresis - ring cedilla - hungarumlaut ogonek caron ' +
  'emdash - - - - - - - - - - - - - - - - AE - ordfeminine - - - - Lslash Oslash OE ordmasculine - - - - - ae - ' +
  '- - dotlessi - - lslash oslash oe germandbls - - - - ');
// The PDF specification leaves 0x7F, 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined (Annex D): writers give them their
// missing width, which is not the bullet's, so they are unused here rather than Ghostscript's bullet.
export const winAnsi: readonly string[] = withUnused(splitNames(
  '- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - space exclam quotedbl numbersign dollar ' +
  'percent ampersand quotesingle parenleft parenright asterisk plus comma hyphen period slash zero one two three ' +
  'four five six seven eight nine colon semicolon less equal greater question at A B C D E F G H I J K L M N O P ' +
  'Q R S T U V W X Y Z bracketleft backslash bracketright asciicircum underscore grave a b c d e f g h i j k l m ' +
  'n o p q r s t u v w x y z braceleft bar braceright asciitilde bullet Euro bullet quotesinglbase florin ' +
  'quotedblbase ellipsis dagger daggerdbl circumflex perthousand Scaron guilsinglleft OE bullet Zcaron bullet ' +
  'bullet quoteleft quoteright quotedblleft quotedblright bullet endash emdash tilde trademark scaron ' +
  'guilsinglright oe bullet zcaron Ydieresis space exclamdown cent sterling currency yen brokenbar section ' +
  'dieresis copyright ordfeminine guillemotleft logicalnot hyphen registered macron degree plusminus twosuperior ' +
  'threesuperior acute mu paragraph periodcentered cedilla onesuperior ordmasculine guillemotright onequarter ' +
  'onehalf threequarters questiondown Agrave Aacute Acircumflex Atilde Adieresis Aring AE Ccedilla Egrave Eacute ' +
  'Ecircumflex Edieresis Igrave Iacute Icircumflex Idieresis Eth Ntilde Ograve Oacute Ocircumflex Otilde ' +
  'Odieresis multiply Oslash Ugrave Uacute Ucircumflex Udieresis Yacute Thorn germandbls agrave aacute ' +
  'acircumflex atilde adieresis aring ae ccedilla egrave eacute ecircumflex edieresis igrave iacute icircumflex ' +
  'idieresis eth ntilde ograve oacute ocircumflex otilde odieresis divide oslash ugrave uacute ucircumflex ' +
  'udieresis yacute thorn ydieresis '), [0x7f, 0x81, 0x8d, 0x8f, 0x90, 0x9d]);
export const macRoman: readonly string[] = splitNames(
  '- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - space exclam quotedbl numbersign dollar ' +
  'percent ampersand quotesingle parenleft parenright asterisk plus comma hyphen period slash zero one two three ' +
  'four five six seven eight nine colon semicolon less equal greater question at A B C D E F G H I J K L M N O P ' +
  'Q R S T U V W X Y Z bracketleft backslash bracketright asciicircum underscore grave a b c d e f g h i j k l m ' +
  'n o p q r s t u v w x y z braceleft bar braceright asciitilde - Adieresis Aring Ccedilla Eacute Ntilde ' +
  'Odieresis Udieresis aacute agrave acircumflex adieresis atilde aring ccedilla eacute egrave ecircumflex ' +
  'edieresis iacute igrave icircumflex idieresis ntilde oacute ograve ocircumflex odieresis otilde uacute ugrave ' +
  'ucircumflex udieresis dagger degree cent sterling section bullet paragraph germandbls registered copyright ' +
  'trademark acute dieresis - AE Oslash - plusminus - - yen mu - - - - - ordfeminine ordmasculine - ae oslash ' +
  'questiondown exclamdown logicalnot - florin - - guillemotleft guillemotright ellipsis space Agrave Atilde ' +
  'Otilde OE oe endash emdash quotedblleft quotedblright quoteleft quoteright divide - ydieresis Ydieresis ' +
  'fraction currency guilsinglleft guilsinglright fi fl daggerdbl periodcentered quotesinglbase quotedblbase ' +
  'perthousand Acircumflex Ecircumflex Aacute Edieresis Egrave Iacute Icircumflex Idieresis Igrave Oacute ' +
  'Ocircumflex - Ograve Uacute Ucircumflex Ugrave dotlessi circumflex tilde macron breve dotaccent ring cedilla ' +
  'hungarumlaut ogonek caron ');

function splitNames(list: string): string[] {
  const names = list.trim().split(/\s+/).map((n) => (n === '-' ? '' : n));
  if (names.length !== 256) throw new Error(`an encoding has ${names.length} codes`);
  return names;
}

function withUnused(names: string[], unused: number[]): string[] {
  for (const code of unused) names[code] = '';
  return names;
}
