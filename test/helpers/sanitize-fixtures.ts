import { serializePdf, type Part } from './pdf-writer.js';

const stream = (dict: string, data: string): Part[] => [`<< ${dict} /Length ${Buffer.byteLength(data, 'latin1')} >>\nstream\n`, data, '\nendstream'];

/**
 * A two-page document with one of each thing SanitizeAction removes, built in raw PDF syntax (not by the engine under
 * test), and text and internal links it must keep. Nothing removed by default is visible: links have no border,
 * the file attachment and the form buttons are hidden (/F 2); the sticky note (Text, with its Popup) is visible.
 *
 * JavaScript (7): catalog /OpenAction and /AA /WC, the JavaScript name tree, page 1's /AA /O, a button's /AA /E, a
 * JavaScript action chained (/Next) after an internal GoTo on page 2, the AcroForm's XFA (a template with a script, its
 * stream typed /EmbeddedFile as LiveCycle writes it).
 * Embedded files (5): the EmbeddedFiles name tree, the catalog's /AF, two file specifications' /EF, the file
 * attachment annotation. Outside links (4): URI and Launch links, a SubmitForm button, a GoToR link. Form actions (1):
 * a ResetForm button. Metadata (3): the Info dictionary, the catalog's XMP, page 2's /Metadata.
 */
export function sanitizeFixture(): Buffer {
  const js = (code: string) => `<< /S /JavaScript /JS (${code}) >>`;
  const objects: (string | Part[])[] = [
    /* 1 */ '<< /Type /Catalog /Pages 2 0 R /OpenAction 10 0 R /AA << /WC ' + js('app.alert\\(1\\)') + ' >> ' +
      '/Names << /JavaScript << /Names [(init) 11 0 R] >> /EmbeddedFiles << /Names [(secret.txt) 12 0 R] >> >> ' +
      '/Metadata 14 0 R /AF [12 0 R] /NeedsRendering false /AcroForm << /Fields [20 0 R 21 0 R] /XFA [(template) 28 0 R] >> >>',
    /* 2 */ '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
    /* 3 */ '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 6 0 R ' +
      '/AA << /O ' + js('this.print\\(\\)') + ' >> /Annots [15 0 R 16 0 R 17 0 R 18 0 R 20 0 R 21 0 R] >>',
    /* 4 */ '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 7 0 R /Metadata 19 0 R /Annots [22 0 R 23 0 R 26 0 R 27 0 R] >>',
    /* 5 */ '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    /* 6 */ stream('', 'BT /F1 24 Tf 72 700 Td (Quarterly figures page one) Tj 0 -90 Td (Go to page two) Tj ET'),
    /* 7 */ stream('', 'BT /F1 24 Tf 72 700 Td (Second page of figures) Tj ET 0 0 1 rg 72 400 200 100 re f'),
    /* 8 */ '<< /Title (Secret plans) /Author (Jane Roe) /Producer (hand) >>',
    /* 9 */ stream('/Type /EmbeddedFile', 'top secret attachment'),
    /* 10 */ js('app.launchURL\\("http://example.com/"\\)'),
    /* 11 */ '<< /S /JavaScript /JS 13 0 R >>',
    /* 12 */ '<< /Type /Filespec /F (secret.txt) /UF (secret.txt) /EF << /F 9 0 R >> /AFRelationship /Data >>',
    /* 13 */ stream('', "console.println('name tree script');"),
    /* 14 */ stream('/Type /Metadata /Subtype /XML', '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>Jane Roe</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>'),
    /* 15 */ '<< /Type /Annot /Subtype /Link /Rect [72 690 300 720] /Border [0 0 0] /A << /S /URI /URI (http://example.com/) >> >>',
    /* 16 */ '<< /Type /Annot /Subtype /Link /Rect [72 600 300 630] /Border [0 0 0] /Dest [4 0 R /Fit] >>',
    /* 17 */ '<< /Type /Annot /Subtype /Link /Rect [72 500 300 530] /Border [0 0 0] /A << /S /Launch /F (calc.exe) >> >>',
    /* 18 */ '<< /Type /Annot /Subtype /FileAttachment /Rect [500 700 520 720] /F 2 /FS 24 0 R /Contents (attached) >>',
    /* 19 */ stream('/Type /Metadata /Subtype /XML', '<x:xmpmeta xmlns:x="adobe:ns:meta/"/>'),
    /* 20 */ '<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (send) /F 2 /Rect [72 100 150 130] /P 3 0 R ' +
      '/A << /S /SubmitForm /F << /FS /URL /F (http://example.com/submit) >> >> /AA << /E ' + js('1') + ' >> >>',
    /* 21 */ '<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (reset) /F 2 /Rect [200 100 280 130] /P 3 0 R /A << /S /ResetForm >> >>',
    /* 22 */ '<< /Type /Annot /Subtype /Link /Rect [72 690 300 720] /Border [0 0 0] /A << /S /GoTo /D [3 0 R /Fit] /Next ' + js('2') + ' >> >>',
    /* 23 */ '<< /Type /Annot /Subtype /Link /Rect [72 600 300 630] /Border [0 0 0] /A << /S /GoToR /F (other.pdf) /D [0 /Fit] >> >>',
    /* 24 */ '<< /Type /Filespec /F (note.txt) /EF << /F 25 0 R >> >>',
    /* 25 */ stream('/Type /EmbeddedFile', 'attachment annotation data'),
    /* 26 */ '<< /Type /Annot /Subtype /Text /Rect [400 600 420 620] /Contents (a sticky note) /Popup 27 0 R >>',
    /* 27 */ '<< /Type /Annot /Subtype /Popup /Rect [420 500 580 600] /Parent 26 0 R >>',
    /* 28 */ stream('/Type /EmbeddedFile', '<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/"><subform><event activity="initialize"><script contentType="application/x-javascript">app.alert(3)</script></event></subform></template>'),
  ];
  return serializePdf(objects, '/Root 1 0 R /Info 8 0 R');
}

/**
 * A page with optional content: a layer OFF in the default configuration ("Draft notes", drawn on the page, inside a
 * form XObject, through a membership dictionary, and as a Square annotation's /OC), and a layer ON ("Printed").
 * Every text drawn in the hidden layer has "Secret" in it; 4 hidden pieces in all.
 */
export function layersFixture(): Buffer {
  const page = [
    'BT /F1 24 Tf 72 700 Td (Visible body text) Tj ET',
    '/OC /Hid BDC q 1 0 0 rg BT /F1 18 Tf 72 650 Td (Secret hidden layer) Tj ET /Span << /ActualText (x) >> BDC EMC Q EMC',
    '/OC /Vis BDC BT /F1 18 Tf 72 600 Td (Shown layer text) Tj ET EMC',
    '/OC /Mix BDC BT /F1 18 Tf 72 550 Td (Secret membership) Tj ET EMC',
    '/Fm Do',
  ].join('\n');
  const form = '/OC /H BDC BT /F1 18 Tf 72 500 Td (Secret in form) Tj ET EMC BT /F1 18 Tf 72 450 Td (Form visible text) Tj ET';
  const objects: (string | Part[])[] = [
    /* 1 */ '<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [5 0 R 6 0 R] /D << /OFF [5 0 R] /Order [5 0 R 6 0 R] >> >> >>',
    /* 2 */ '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    /* 3 */ '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /Properties << /Hid 5 0 R /Vis 6 0 R /Mix 9 0 R >> /XObject << /Fm 8 0 R >> >> /Contents 7 0 R /Annots [10 0 R] >>',
    /* 4 */ '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    /* 5 */ '<< /Type /OCG /Name (Draft notes) >>',
    /* 6 */ '<< /Type /OCG /Name (Printed) >>',
    /* 7 */ stream('', page),
    /* 8 */ stream('/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /Properties << /H 5 0 R >> >>', form),
    /* 9 */ '<< /Type /OCMD /OCGs [5 0 R] >>',
    /* 10 */ '<< /Type /Annot /Subtype /Square /Rect [300 300 400 400] /C [1 0 0] /OC 5 0 R /Contents (Secret square) >>',
  ];
  return serializePdf(objects, '/Root 1 0 R');
}
