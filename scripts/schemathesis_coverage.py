"""Coverage of a Schemathesis run per operation (scripts/schemathesis.sh; docs/api.md, "Conformance").

Reads the service's own request counts (GET /metrics: pdfservice_http_requests_total by method, route pattern and
status) and its OpenAPI description, and prints, for every operation, how many requests reached it and with which
statuses. An operation that never answered 2xx or 3xx was not tested on its success path: the run fails, unless the
operation is named in UNREACHABLE with the reason.
    python3 scripts/schemathesis_coverage.py METRICS_FILE OPENAPI_FILE REFUSALS_FILE

REFUSALS_FILE lists the schema-valid requests answered 400 (operation and code, one a line; the hooks write it).
Such a refusal is right only for a rule the description cannot state, and each operation may give only the codes of
its own rules (ACCEPTED_400); any other code is a gap between the description and the service, and fails the run.
"""
import json
import re
import sys
from collections import defaultdict

API_PREFIX = "/pdfservice/v1"

# Operations whose success path a fuzzer cannot reach on its own, and why. Keep this empty where a fixture can do it.
UNREACHABLE = {
    "getUserDmsAccount": "a DMS account exists only with the WebDAV store (PDFSERVICE_STORE=webdav); test/dms/dms-mapped.test.ts covers it",
    "setUserDmsAccount": "a DMS account exists only with the WebDAV store (PDFSERVICE_STORE=webdav); test/dms/dms-mapped.test.ts covers it",
    "deleteUserDmsAccount": "a DMS account exists only with the WebDAV store (PDFSERVICE_STORE=webdav); test/dms/dms-mapped.test.ts covers it",
}

# The rules a JSON Schema cannot state, by operation: the codes a schema-valid request may be refused with
# (docs/errors.md). XFDF and FDF are formats of their own; a field's value depends on the field's kind in the document;
# passwords follow the encryption's rules (VALIDATION_FAILED names the rule); a page index or range must name pages the
# document has; a key store must open; a token's expiry lies in the future and a user's password has 8 characters at
# least (VALIDATION_FAILED, as XML may carry a generated value shorter than it was made); an upload's Office options
# depend on what the body turns out to be (BAD_REQUEST names the option), a user has at most so many tokens and the last
# admin keeps the right (BAD_REQUEST); the login body and a trash restore's are optional (XML "null" is MALFORMED_XML).
_XFDF = {"MALFORMED_XFDF", "MALFORMED_FDF", "UNSUPPORTED_SUBTYPE", "PAGE_OUT_OF_RANGE", "FIELD_VALUE_INVALID", "VALIDATION_FAILED"}
_PAGES = {"PAGE_OUT_OF_RANGE", "INVALID_PAGE_RANGE"}
# An XML body cannot carry every value a JSON Schema allows (an empty object is an empty root, one action among several
# reads as several), and a multipart request has rules of its own (one action part).
_XML = {"MALFORMED_XML", "INVALID_ACTION"}
ACCEPTED_400 = {
    "importAnnotations": _XFDF,
    "addAnnotation": _XFDF | {"MALFORMED_MULTIPART"},
    "importFields": _XFDF,
    "importFieldsLegacy": _XFDF,
    "setField": _XML | {"FIELD_VALUE_INVALID", "VALIDATION_FAILED"},
    # A figure's index must name a figure of the document, and a bulk change names each figure once.
    "patchFigures": {"FIGURE_NOT_FOUND", "VALIDATION_FAILED"},
    "setPasswordPermissions": _XML | {"VALIDATION_FAILED"},
    "listAnnotations": _PAGES,
    # An export's pageRange names pages from 1 that the document has, its table one of the tables of those pages, and
    # table applies to xlsx and csv only (VALIDATION_FAILED otherwise; docs/export.md).
    "exportDocument": _PAGES | {"TABLE_OUT_OF_RANGE", "VALIDATION_FAILED"},
    "deleteAnnotations": _PAGES,
    # INVALID_SEARCH: RemovePagesByTextAction's regular expression must compile and finish within its budget.
    "runPageAction": _PAGES | _XML | {"VALIDATION_FAILED", "MALFORMED_MULTIPART", "UNKNOWN_FONT", "UNSUPPORTED_CHARACTERS", "UNKNOWN_LANGUAGE", "INVALID_SEARCH"},
    "runDocumentAction": _PAGES | _XML | {"VALIDATION_FAILED", "MALFORMED_MULTIPART", "UNKNOWN_FONT", "UNSUPPORTED_CHARACTERS", "UNKNOWN_LANGUAGE"},
    "markRedactions": _PAGES | _XML | {"INVALID_SEARCH"},
    # A new field's name has no "." (dots separate the names of parent fields; docs/signing.md).
    "createSignatureField": _PAGES | _XML | {"VALIDATION_FAILED"},
    "signField": {"KEYSTORE_INVALID", "KEYSTORE_PASSWORD_INVALID", "KEYSTORE_ALIAS_NOT_FOUND", "KEYSTORE_NO_PRIVATE_KEY", "VALIDATION_FAILED"},
    "createToken": _XML | {"VALIDATION_FAILED", "BAD_REQUEST"},
    "createUser": _XML | {"VALIDATION_FAILED"},
    "updateUser": _XML | {"VALIDATION_FAILED", "BAD_REQUEST"},
    "uploadToRootFolder": {"VALIDATION_FAILED", "MALFORMED_MULTIPART", "INVALID_PAGE_RANGE", "BAD_REQUEST"},
    # A folder's POST also takes a MoveAction body (docs/move.md): as XML an empty MoveAction is an empty root
    # (MALFORMED_XML), and a folder's new path may not end in ".pdf", a rule of folder names the schema does not carry.
    "uploadToFolder": {"VALIDATION_FAILED", "MALFORMED_MULTIPART", "INVALID_PAGE_RANGE", "BAD_REQUEST", "MALFORMED_XML", "INVALID_PATH"},
    "putDocument": {"VALIDATION_FAILED", "INVALID_PAGE_RANGE", "BAD_REQUEST"},
    # A date must name a real day and time, and a merge may pass 100 custom keys; an XMP packet is a format of its own.
    "patchMetadata": {"VALIDATION_FAILED"},
    "putMetadata": {"VALIDATION_FAILED"},
    "putXmp": {"MALFORMED_XMP"},
    "login": {"MALFORMED_XML"},
    # A trash restore's savePath is a document path for a document entry and a folder path for a folder entry (the
    # description gives both; which one applies depends on the entry).
    "restoreTrashEntry": {"MALFORMED_XML", "INVALID_PATH"},
    # A compare's `with` names its base by filePath, versionId or both (an anyOf of required lists would type `with` as
    # Any in the generated Python client).
    "compareDocument": {"VALIDATION_FAILED"},
    # The steps are the stored path's action bodies with their rules; an Office option depends on what the file is.
    "convertOneShot": _PAGES | {"VALIDATION_FAILED", "MALFORMED_MULTIPART", "INVALID_PAGE_RANGE", "BAD_REQUEST", "UNKNOWN_FONT", "UNSUPPORTED_CHARACTERS", "UNKNOWN_LANGUAGE", "INVALID_SEARCH"},
}
# The operations that can make a job take X-Service-Webhook-Url (docs/webhooks.md): with no allow-list (webhooks off,
# as here) or a URL off it, the documented answer is 400 WEBHOOK_URL_REFUSED.
for _op in ("runDocumentAction", "runPageAction", "uploadToFolder", "uploadToRootFolder", "uploadDocument", "putDocument",
            "convertOneShot", "compareDocument", "exportDocument"):
    ACCEPTED_400[_op] = ACCEPTED_400.get(_op, set()) | {"WEBHOOK_URL_REFUSED"}

LINE = re.compile(r'^pdfservice_http_requests_total\{(?P<labels>[^}]*)\} (?P<value>[0-9.e+]+)$')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def main(metrics_path: str, openapi_path: str, refusals_path: str) -> int:
    with open(openapi_path, encoding="utf-8") as f:
        description = json.load(f)
    operations = {}
    for path, item in description["paths"].items():
        for method, operation in item.items():
            if method in ("get", "put", "post", "delete", "patch"):
                operations[(method.upper(), path)] = operation["operationId"]

    counts = defaultdict(lambda: defaultdict(int))
    with open(metrics_path, encoding="utf-8") as f:
        for line in f:
            match = LINE.match(line.strip())
            if not match:
                continue
            labels = dict(LABEL.findall(match["labels"]))
            route = labels.get("route", "")
            if not route.startswith(API_PREFIX):
                continue
            # Fastify's pattern (/documents/:filePath.pdf) as the description writes it (/documents/{filePath}.pdf).
            path = re.sub(r":(\w+)", r"{\1}", route)
            key = (labels.get("method", ""), path)
            counts[key][labels.get("status", "")] += int(float(match["value"]))

    missed = []
    width = max(len(op) for op in operations.values())
    print(f"{'operation'.ljust(width)}  requests  success  statuses")
    for key, op in sorted(operations.items(), key=lambda kv: kv[1]):
        statuses = counts.get(key, {})
        total = sum(statuses.values())
        success = sum(n for s, n in statuses.items() if s[:1] in ("2", "3"))
        shown = " ".join(f"{s}:{n}" for s, n in sorted(statuses.items()))
        mark = ""
        if success == 0:
            if op in UNREACHABLE:
                mark = f"  (unreachable: {UNREACHABLE[op]})"
            else:
                mark = "  <- never succeeded"
                missed.append(op)
        print(f"{op.ljust(width)}  {total:8d}  {success:7d}  {shown}{mark}")
    excused = sum(1 for op in operations.values() if op in UNREACHABLE and not any(
        s[:1] in ("2", "3") for key, name in operations.items() if name == op for s in counts.get(key, {})))
    reached = len(operations) - len(missed) - excused
    print(f"coverage: {reached} of {len(operations)} operations reached a success answer"
          f"{f', {excused} cannot here (UNREACHABLE)' if excused else ''}")
    refused = defaultdict(int)
    details = {}
    gated = set()
    with open(refusals_path, encoding="utf-8") as f:
        for line in f:
            op, code, detail, phase = (line.rstrip("\n").split("\t") + ["", "", ""])[:4]
            refused[(op, code)] += 1
            details.setdefault((op, code), detail)
            # The examples and coverage phases send the same cases every run: a refusal there fails the run. The fuzzing
            # phase draws at random, so what it finds is printed for review but does not fail the run (it would fail
            # one run in some and not the next).
            if phase not in ("fuzzing", "stateful"):
                gated.add((op, code))
    wrong = []
    for (op, code), n in sorted(refused.items()):
        right = code in ACCEPTED_400.get(op, set())
        mark = "" if right else ("  <- not a rule of this operation" if (op, code) in gated else "  <- not a rule of this operation (fuzzing only: review)")
        print(f"refused with 400 (schema-valid): {op} {code or '(no code)'} x{n}{mark} (e.g. {details[(op, code)]})")
        if not right and (op, code) in gated:
            wrong.append(f"{op} {code}")
    status = 0
    if missed:
        print("coverage: never succeeded: " + ", ".join(missed), file=sys.stderr)
        status = 1
    if wrong:
        print("coverage: schema-valid requests refused for no rule of theirs: " + ", ".join(wrong), file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3]))
