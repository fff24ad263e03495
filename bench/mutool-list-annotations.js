// The native peer of `GET .../annotations` in the annotations bench: run as
// `mutool run bench/mutool-list-annotations.js file.pdf` (mupdf-tools 1.21's
// classic JavaScript API, not Node). It walks every page's /Annots, as the service
// does, reads the fields the service returns and prints one JSON array on stdout.
// Plain ES5: mutool's interpreter (MuJS) knows no let, arrow functions or modules.

var doc = new PDFDocument(scriptArgs[0]);

// A missing key gives undefined; get() resolves indirect references itself.
function text(dict, key) {
  var value = dict.get(key);
  return value !== undefined && value.isString() ? value.asString() : undefined;
}

function numbers(dict, key) {
  var value = dict.get(key);
  if (value === undefined || !value.isArray()) return undefined;
  var out = [];
  for (var i = 0; i < value.length; i++) out.push(value.get(i).asNumber());
  return out;
}

var list = [];
var pageCount = doc.countPages();
for (var p = 0; p < pageCount; p++) {
  var annots = doc.findPage(p).get('Annots');
  if (annots === undefined || !annots.isArray()) continue;
  for (var i = 0; i < annots.length; i++) {
    var annot = annots.get(i);
    if (!annot.isDictionary()) continue;
    var subtype = annot.get('Subtype');
    var rect = numbers(annot, 'Rect');
    var entry = {
      pageIndex: p,
      subtype: subtype !== undefined && subtype.isName() ? subtype.asName() : undefined,
      name: text(annot, 'NM'),
      rectangle: rect && rect.length === 4 ? { x: rect[0], y: rect[1], width: rect[2] - rect[0], height: rect[3] - rect[1] } : undefined,
      contents: text(annot, 'Contents'),
      author: text(annot, 'T'),
      subject: text(annot, 'Subj'),
      modifiedDate: text(annot, 'M'),
      color: numbers(annot, 'C'),
    };
    var flags = annot.get('F');
    if (flags !== undefined && flags.isNumber()) entry.flags = flags.asNumber();
    // The service reports the popup's rectangle and open state with its parent.
    var popup = annot.get('Popup');
    if (popup !== undefined && popup.isDictionary()) {
      var open = popup.get('Open');
      entry.popup = { name: text(popup, 'NM'), rectangle: numbers(popup, 'Rect'), open: open !== undefined && open.isBoolean() ? open.asBoolean() : false };
    }
    list.push(entry);
  }
}
print(JSON.stringify(list));
