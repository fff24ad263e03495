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

/**
 * The Unicode value of each glyph name the tables above use (the Adobe Glyph List's, as Ghostscript's gs_agl.ps has it):
 * a TrueType substitute's glyph is found by Unicode through its (3,1) cmap, as PDF/A readers do (ISO 32000-1, 9.6.6.4).
 */
export const unicodeOfName: ReadonlyMap<string, number> = new Map(
  (
  'A:0041 AE:00C6 Aacute:00C1 Acircumflex:00C2 Adieresis:00C4 Agrave:00C0 Aring:00C5 Atilde:00C3 B:0042 C:0043 ' +
  'Ccedilla:00C7 D:0044 E:0045 Eacute:00C9 Ecircumflex:00CA Edieresis:00CB Egrave:00C8 Eth:00D0 Euro:20AC ' +
  'F:0046 G:0047 H:0048 I:0049 Iacute:00CD Icircumflex:00CE Idieresis:00CF Igrave:00CC J:004A K:004B L:004C ' +
  'Lslash:0141 M:004D N:004E Ntilde:00D1 O:004F OE:0152 Oacute:00D3 Ocircumflex:00D4 Odieresis:00D6 Ograve:00D2 ' +
  'Oslash:00D8 Otilde:00D5 P:0050 Q:0051 R:0052 S:0053 Scaron:0160 T:0054 Thorn:00DE U:0055 Uacute:00DA ' +
  'Ucircumflex:00DB Udieresis:00DC Ugrave:00D9 V:0056 W:0057 X:0058 Y:0059 Yacute:00DD Ydieresis:0178 Z:005A ' +
  'Zcaron:017D a:0061 aacute:00E1 acircumflex:00E2 acute:00B4 adieresis:00E4 ae:00E6 agrave:00E0 ampersand:0026 ' +
  'aring:00E5 asciicircum:005E asciitilde:007E asterisk:002A at:0040 atilde:00E3 b:0062 backslash:005C bar:007C ' +
  'braceleft:007B braceright:007D bracketleft:005B bracketright:005D breve:02D8 brokenbar:00A6 bullet:2022 ' +
  'c:0063 caron:02C7 ccedilla:00E7 cedilla:00B8 cent:00A2 circumflex:02C6 colon:003A comma:002C copyright:00A9 ' +
  'currency:00A4 d:0064 dagger:2020 daggerdbl:2021 degree:00B0 dieresis:00A8 divide:00F7 dollar:0024 ' +
  'dotaccent:02D9 dotlessi:0131 e:0065 eacute:00E9 ecircumflex:00EA edieresis:00EB egrave:00E8 eight:0038 ' +
  'ellipsis:2026 emdash:2014 endash:2013 equal:003D eth:00F0 exclam:0021 exclamdown:00A1 f:0066 fi:FB01 ' +
  'five:0035 fl:FB02 florin:0192 four:0034 fraction:2044 g:0067 germandbls:00DF grave:0060 greater:003E ' +
  'guillemotleft:00AB guillemotright:00BB guilsinglleft:2039 guilsinglright:203A h:0068 hungarumlaut:02DD ' +
  'hyphen:002D i:0069 iacute:00ED icircumflex:00EE idieresis:00EF igrave:00EC j:006A k:006B l:006C less:003C ' +
  'logicalnot:00AC m:006D macron:00AF mu:00B5 multiply:00D7 n:006E nine:0039 ntilde:00F1 numbersign:0023 o:006F ' +
  'oacute:00F3 ocircumflex:00F4 odieresis:00F6 oe:0153 ogonek:02DB ograve:00F2 one:0031 onehalf:00BD ' +
  'onequarter:00BC onesuperior:00B9 ordfeminine:00AA ordmasculine:00BA oslash:00F8 otilde:00F5 p:0070 ' +
  'paragraph:00B6 parenleft:0028 parenright:0029 percent:0025 period:002E periodcentered:00B7 perthousand:2030 ' +
  'plus:002B plusminus:00B1 q:0071 question:003F questiondown:00BF quotedbl:0022 quotedblbase:201E ' +
  'quotedblleft:201C quotedblright:201D quoteleft:2018 quoteright:2019 quotesinglbase:201A quotesingle:0027 ' +
  'r:0072 registered:00AE ring:02DA s:0073 scaron:0161 section:00A7 semicolon:003B seven:0037 six:0036 ' +
  'slash:002F space:0020 sterling:00A3 t:0074 three:0033 threequarters:00BE threesuperior:00B3 tilde:02DC ' +
  'trademark:2122 two:0032 twosuperior:00B2 u:0075 uacute:00FA ucircumflex:00FB udieresis:00FC ugrave:00F9 ' +
  'underscore:005F v:0076 w:0077 x:0078 y:0079 ydieresis:00FF yen:00A5 z:007A zcaron:017E zero:0030 '
  )
    .trim()
    .split(/\s+/)
    .map((pair) => [pair.slice(0, pair.indexOf(':')), parseInt(pair.slice(pair.indexOf(':') + 1), 16)] as const),
);

function splitNames(list: string): string[] {
  const names = list.trim().split(/\s+/).map((n) => (n === '-' ? '' : n));
  if (names.length !== 256) throw new Error(`an encoding has ${names.length} codes`);
  return names;
}

function withUnused(names: string[], unused: number[]): string[] {
  for (const code of unused) names[code] = '';
  return names;
}
