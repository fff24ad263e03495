package pdfservice.verapdf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.verapdf.ReleaseDetails;
import org.verapdf.core.EncryptedPdfException;
import org.verapdf.core.ModelParsingException;
import org.verapdf.gf.foundry.VeraGreenfieldFoundryProvider;
import org.verapdf.pdfa.Foundries;
import org.verapdf.pdfa.PDFAParser;
import org.verapdf.pdfa.PDFAValidator;
import org.verapdf.pdfa.VeraPDFFoundry;
import org.verapdf.pdfa.flavours.PDFAFlavour;
import org.verapdf.pdfa.results.Location;
import org.verapdf.pdfa.results.TestAssertion;
import org.verapdf.pdfa.results.ValidationResult;
import org.verapdf.pdfa.validation.profiles.RuleId;
import org.verapdf.pdfa.validation.validators.ValidatorConfig;
import org.verapdf.pdfa.validation.validators.ValidatorFactory;

/**
 * pdfservice's warm veraPDF (src/tools/verapdf.ts). One request per stdin line,
 * {"file": "/abs/path.pdf", "flavour": "2b", "password": "optional"}, one JSON answer per stdout line:
 * {"ok": true, "report": {...}} with the ValidationReport fields, or
 * {"ok": false, "kind": "damaged" | "encrypted" | "failed", "error": "..."} ("failed": a request
 * this program cannot understand, or out of memory).
 * A file veraPDF cannot read answers an error line and the helper goes on; only
 * running out of memory ends it (the supervisor starts a fresh one).
 * "--version" prints the veraPDF library's version and exits (the start-up probe).
 */
public final class Helper {
  /** Locations kept per failed rule (the shared contract: at most 10). */
  private static final int MAX_LOCATIONS = 10;
  private static final Pattern PAGE = Pattern.compile("pages\\[(\\d+)\\]");
  private static final Pattern OBJECT = Pattern.compile("\\((\\d+) (\\d+) obj");
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    quietLogging();
    VeraGreenfieldFoundryProvider.initialise();
    String version = version();
    if (args.length > 0 && args[0].equals("--version")) {
      System.out.println("veraPDF " + version);
      return;
    }
    // Only our answers go to stdout: anything the library prints goes to stderr.
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    out.println(JSON.writeValueAsString(JSON.createObjectNode().put("ready", true).put("version", version)));
    out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) continue;
      ObjectNode answer;
      try {
        answer = handle(JSON.readTree(line), version);
      } catch (OutOfMemoryError e) {
        // The heap may be in any state now: answer, then end so that a fresh JVM replaces this one.
        out.println(JSON.writeValueAsString(error("failed", "veraPDF ran out of memory")));
        out.flush();
        System.exit(3);
        return;
      } catch (Throwable e) {
        // Whatever else the parser or the validator throws comes from this file's content (veraPDF's parser has
        // no other way to say a damaged file surprised it): the file is damaged, the helper goes on.
        answer = error("damaged", describe(e));
      }
      out.println(JSON.writeValueAsString(answer));
      out.flush();
    }
  }

  private static ObjectNode handle(JsonNode request, String version) throws Exception {
    String file = request.path("file").asText("");
    PDFAFlavour flavour = PDFAFlavour.byFlavourId(request.path("flavour").asText(""));
    if (file.isEmpty() || flavour == PDFAFlavour.NO_FLAVOUR) return error("failed", "bad request: " + request);
    // The flavour is the one asked for, never the one the file claims in its XMP.
    ValidatorConfig config = ValidatorFactory.createConfig(flavour, flavour, false, 0, false, false, Level.OFF, MAX_LOCATIONS, false, "", false, false);
    // An encrypted file is read with its password (none: the empty user password), so that its content is checked too.
    String password = request.path("password").asText("");
    try (PDFAParser parser = Foundries.defaultInstance().createParser(new File(file), flavour, flavour, password);
         PDFAValidator validator = Foundries.defaultInstance().createValidator(config, flavour)) {
      ValidationResult result = validator.validate(parser);
      return report(result, flavour, version);
    } catch (EncryptedPdfException e) {
      return error("encrypted", describe(e));
    } catch (ModelParsingException e) {
      return error("damaged", describe(e));
    }
  }

  private static ObjectNode report(ValidationResult result, PDFAFlavour flavour, String version) {
    // Failed rules in a stable order (specification, clause, test), each with its first locations.
    Map<String, ObjectNode> rules = new LinkedHashMap<>();
    Map<String, ArrayNode> locations = new LinkedHashMap<>();
    List<Map.Entry<RuleId, Integer>> failed = new ArrayList<>(result.getFailedChecks().entrySet());
    failed.sort(Comparator.comparing((Map.Entry<RuleId, Integer> e) -> e.getKey().getSpecification().ordinal())
        .thenComparing(e -> clauseKey(e.getKey().getClause())).thenComparingInt(e -> e.getKey().getTestNumber()));
    int failedChecks = 0;
    for (Map.Entry<RuleId, Integer> entry : failed) {
      RuleId id = entry.getKey();
      ObjectNode rule = JSON.createObjectNode();
      rule.put("specification", specification(id.getSpecification()));
      rule.put("clause", id.getClause());
      rule.put("testNumber", id.getTestNumber());
      rule.put("description", "");
      rule.put("failedChecks", entry.getValue());
      ArrayNode where = rule.putArray("locations");
      rules.put(key(id), rule);
      locations.put(key(id), where);
      failedChecks += entry.getValue();
    }
    for (TestAssertion assertion : result.getTestAssertions()) {
      if (assertion.getStatus() != TestAssertion.Status.FAILED) continue;
      ObjectNode rule = rules.get(key(assertion.getRuleId()));
      if (rule == null) continue;
      if (rule.path("description").asText().isEmpty() && assertion.getMessage() != null) rule.put("description", assertion.getMessage().trim());
      ArrayNode where = locations.get(key(assertion.getRuleId()));
      if (where.size() >= MAX_LOCATIONS) continue;
      where.add(location(assertion.getLocation()));
    }
    ObjectNode report = JSON.createObjectNode();
    report.put("profile", flavour.getId());
    report.put("compliant", result.isCompliant());
    report.putObject("validator").put("name", "veraPDF").put("version", version);
    report.put("passedChecks", Math.max(0, result.getTotalAssertions() - failedChecks));
    report.put("failedChecks", failedChecks);
    ArrayNode list = report.putArray("rules");
    rules.values().forEach(list::add);
    ObjectNode answer = JSON.createObjectNode().put("ok", true);
    answer.set("report", report);
    return answer;
  }

  /** "pages[3](12 0 obj PDPage)/contentStream[0]" names page index 3 and, last in the path, object 12. */
  private static ObjectNode location(Location location) {
    ObjectNode node = JSON.createObjectNode();
    String context = location == null || location.getContext() == null ? "" : location.getContext();
    Matcher page = PAGE.matcher(context);
    if (page.find()) node.put("pageIndex", Integer.parseInt(page.group(1)));
    Matcher object = OBJECT.matcher(context);
    Integer number = null;
    while (object.find()) number = Integer.parseInt(object.group(1));
    if (number != null) node.put("objectNumber", number);
    node.put("context", context);
    return node;
  }

  /** "ISO 19005-2:2011" from the specification's id and year. */
  private static String specification(PDFAFlavour.Specification specification) {
    String id = specification.getId();
    return id == null || id.isEmpty() ? specification.toString() : id;
  }

  private static String key(RuleId id) {
    return id.getSpecification() + "|" + id.getClause() + "|" + id.getTestNumber();
  }

  /** "6.2.11.4.1" sorts after "6.2.2": each number zero-padded. */
  private static String clauseKey(String clause) {
    StringBuilder key = new StringBuilder();
    for (String part : clause.split("\\.")) key.append(String.format("%6s", part)).append('.');
    return key.toString();
  }

  private static ObjectNode error(String kind, String message) {
    return JSON.createObjectNode().put("ok", false).put("kind", kind).put("error", message);
  }

  private static String describe(Throwable e) {
    String message = e.getMessage();
    Throwable cause = e.getCause();
    if ((message == null || message.isBlank()) && cause != null) message = cause.getMessage();
    String text = e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    return text.length() > 300 ? text.substring(0, 300) : text;
  }

  private static String version() {
    for (ReleaseDetails details : ReleaseDetails.getDetails()) {
      if (details.getVersion() != null && !details.getVersion().isEmpty()) return details.getVersion();
    }
    return "unknown";
  }

  private static void quietLogging() {
    LogManager.getLogManager().reset();
    Logger.getLogger("").setLevel(Level.OFF);
  }
}
