// Reads an XFDF or FDF file with PDFBox (an independent implementation) and prints, as JSON,
// the annotations (subtype, page, name, rect) and fields (name, value) PDFBox finds in it.
// Usage: java PdfboxRead xfdf|fdf FILE
import java.io.File;
import java.util.List;
import org.apache.pdfbox.cos.COSName;
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
              .append(",\"rect\":").append(r == null ? "null" : "[" + r.getLowerLeftX() + "," + r.getLowerLeftY() + "," + r.getUpperRightX() + "," + r.getUpperRightY() + "]")
              .append('}');
        }
      }
      StringBuilder fieldsOut = new StringBuilder("[");
      fields(fdf.getCatalog().getFDF().getFields(), "", fieldsOut);
      System.out.println("{\"annotations\":" + annots + "],\"fields\":" + fieldsOut + "]}");
    }
  }
}
