// The native peer of the redaction bench: `mutool run bench/mutool-redact.js in.pdf out.pdf word`
// (mupdf-tools' classic JavaScript API). Searches every page for the word,
// creates a Redact annotation per hit, applies the page's redactions and saves;
// prints the number of hits. Plain ES5 for MuJS.
var doc = new PDFDocument(scriptArgs[0]);
var word = scriptArgs[2];
var hits = 0;
var pageCount = doc.countPages();
for (var p = 0; p < pageCount; p++) {
  var page = doc.loadPage(p);
  var found = page.search(word, 500);
  for (var i = 0; i < found.length; i++) {
    var annot = page.createAnnotation('Redact');
    annot.setQuadPoints(found[i]);
    annot.update();
    hits++;
  }
  page.applyRedactions(true);
}
doc.save(scriptArgs[1], 'garbage=1,compress');
print(hits);
