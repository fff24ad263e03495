// Reads an XFDF or FDF file with PDFBox (an independent implementation) and prints, as JSON,
// the annotations (subtype, page, name, rect) and fields (name, value) PDFBox finds in it.
// An annotation with an appearance dictionary also gets "appearance": the keys of /AP, the
// length of the normal appearance stream's raw (still filtered) data and the raw lengths of
// the XObjects in its resources.
// Usage: java PdfboxRead xfdf|fdf FILE
import java.io.File;
import java.io.InputStream;
import java.util.List;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.fdf.FDFAnnotation;
import org.apache.pdfbox.pdmodel.fdf.FDFDocument;
import org.apache.pdfbox.pdmodel.fdf.FDFField;

public class PdfboxRead {
  static String quote(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  static void fields(List<FDFField> list, String prefix, StringBuilder out) throws Exception {
    if (list == null) return;
    for (FDFField f : list) {
      String name = prefix.isEmpty() ? f.getPartialFieldName() : prefix + "." + f.getPartialFieldName();
      if (f.getKids() != null && !f.getKids().isEmpty()) {
        fields(f.getKids(), name, out);
      } else {
        Object v = f.getValue();
        if (out.length() > 1) out.append(',');
        out.append("{\"name\":").append(quote(name)).append(",\"value\":").append(quote(v == null ? null : v.toString())).append('}');
      }
    }
  }

  static long rawLength(COSStream s) throws Exception {
    long n = 0;
    try (InputStream in = s.createRawInputStream()) {
      byte[] buffer = new byte[8192];
      for (int r; (r = in.read(buffer)) > 0; ) n += r;
    }
    return n;
  }

  static String appearance(COSDictionary annot) throws Exception {
    COSBase ap = annot.getDictionaryObject(COSName.AP);
    if (!(ap instanceof COSDictionary)) return null;
    StringBuilder keys = new StringBuilder("[");
    for (COSName k : ((COSDictionary) ap).keySet()) {
      if (keys.length() > 1) keys.append(',');
      keys.append(quote(k.getName()));
    }
    StringBuilder out = new StringBuilder("{\"keys\":").append(keys).append(']');
    COSBase n = ((COSDictionary) ap).getDictionaryObject(COSName.N);
    if (n instanceof COSStream) {
      COSStream normal = (COSStream) n;
      out.append(",\"normalLength\":").append(rawLength(normal));
      COSBase resources = normal.getDictionaryObject(COSName.RESOURCES);
      COSBase xobjects = resources instanceof COSDictionary ? ((COSDictionary) resources).getDictionaryObject(COSName.XOBJECT) : null;
      if (xobjects instanceof COSDictionary) {
        StringBuilder x = new StringBuilder("{");
        for (COSName k : ((COSDictionary) xobjects).keySet()) {
          COSBase v = ((COSDictionary) xobjects).getDictionaryObject(k);
          if (!(v instanceof COSStream)) continue;
          if (x.length() > 1) x.append(',');
          x.append(quote(k.getName())).append(':').append(rawLength((COSStream) v));
        }
        out.append(",\"xobjects\":").append(x).append('}');
      }
    }
    return out.append('}').toString();
  }

  public static void main(String[] args) throws Exception {
    File file = new File(args[1]);
    try (FDFDocument fdf = args[0].equals("xfdf") ? FDFDocument.loadXFDF(file) : FDFDocument.load(file)) {
      StringBuilder annots = new StringBuilder("[");
      List<FDFAnnotation> list = fdf.getCatalog().getFDF().getAnnotations();
      if (list != null) {
        for (FDFAnnotation a : list) {
          if (a == null) continue; // a subtype this PDFBox version does not model
          if (annots.length() > 1) annots.append(',');
          PDRectangle r = a.getRectangle();
          annots.append("{\"subtype\":").append(quote(a.getCOSObject().getNameAsString(COSName.SUBTYPE)))
              .append(",\"page\":").append(a.getPage())
              .append(",\"name\":").append(quote(a.getName()))
              .append(",\"rect\":").append(r == null ? "null" : "[" + r.getLowerLeftX() + "," + r.getLowerLeftY() + "," + r.getUpperRightX() + "," + r.getUpperRightY() + "]");
          String ap = appearance(a.getCOSObject());
          if (ap != null) annots.append(",\"appearance\":").append(ap);
          annots.append('}');
        }
      }
      StringBuilder fieldsOut = new StringBuilder("[");
      fields(fdf.getCatalog().getFDF().getFields(), "", fieldsOut);
      System.out.println("{\"annotations\":" + annots + "],\"fields\":" + fieldsOut + "]}");
    }
  }
}
