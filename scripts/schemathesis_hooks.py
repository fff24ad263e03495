"""Schemathesis hooks for pdfservice (scripts/schemathesis.sh): how to send the body types it has no serializer for."""
import os
import random
import re

import requests

import schemathesis


@schemathesis.serializer("application/vnd.adobe.xfdf", "application/vnd.fdf", "application/fdf")
def xfdf_or_fdf(ctx, value):
    # The description gives XFDF as a string and FDF as binary: send the generated value's bytes as they are.
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    data = getattr(value, "data", None)
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    return str(value).encode("utf-8")


@schemathesis.hook
def filter_case(ctx, case):
    # A document password travels in X-Service-DocumentPassword or X-Service-DocumentPassword-Base64, never both
    # (docs/api.md, "Document passwords"): a rule OpenAPI cannot state, so such requests are not generated.
    headers = {name.lower() for name in (case.headers or {})}
    if {"x-service-documentpassword", "x-service-documentpassword-base64"} <= headers:
        return False
    # A compare's `with` names its base by filePath, versionId or both (docs/compare.md): the route's rule, kept out of
    # the schema so that the generated clients type `with`; a valid case naming neither is not generated.
    return _negative(case) or not _compare_base_unnamed(case)


def _compare_base_unnamed(case):
    body = case.body if isinstance(case.body, dict) else None
    if _operation_id(case) != "compareDocument" or body is None or not isinstance(body.get("with"), dict):
        return False
    return "filePath" not in body["with"] and "versionId" not in body["with"]


@schemathesis.hook
def before_add_examples(ctx, examples):
    # The Examples phase builds its cases without the filter_case hooks (schemathesis 4's generate_example_cases):
    # the same rule, kept by dropping the Base64 header where a filled-in case has both.
    for case in examples:
        both = [name for name in (case.headers or {}) if name.lower() in ("x-service-documentpassword", "x-service-documentpassword-base64")]
        if len(both) == 2:
            for name in both:
                if name.lower().endswith("-base64"):
                    del case.headers[name]
        if _compare_base_unnamed(case):
            case.body["with"]["filePath"] = "reports/2026/q1.pdf"


@schemathesis.hook("filter_case")
def query_list_of_one_is_a_scalar(ctx, case):
    # No query parameter of the service is an array. A value made invalid by becoming a list of one item is sent as
    # that item (offset=[0.0] goes as offset=0.0, a valid integer once the query is read), and an empty list as no
    # parameter at all: not wrong on the wire, so such negative cases are not generated. Lists of two or more are
    # sent as repeated keys, which the service refuses, and stay.
    if not _negative(case):
        return True
    return not any(isinstance(v, list) and len(v) < 2 for v in (case.query or {}).values())


# Characters XML 1.0 cannot carry (they are dropped on the way), and CR, which XML reads as LF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0d\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _not_xml_text(value):
    """
    Whether `value` holds something XML cannot say as it is: a non-string scalar, a character XML drops, or a list
    that reads back as something else. An empty list is no element at all (a required scalar made `[]` arrives
    absent, which an optional one may be), and a list of one is the element once, which is how a scalar is written.
    """
    if isinstance(value, dict):
        return any(_not_xml_text(v) for v in value.values())
    if isinstance(value, list):
        return len(value) < 2 or any(_not_xml_text(v) for v in value)
    return not isinstance(value, str) or bool(_NOT_XML.search(value))


@schemathesis.hook("filter_case")
def xml_cannot_say_wrong_types(ctx, case):
    # In XML every value is text: a body made invalid by a wrong type (null, a number where a string belongs)
    # serializes to text the schema allows (<name>null</name> is the name "null"), and characters XML cannot
    # carry are dropped on the way, so a string made too long may arrive within its limit. Such negative cases
    # are not wrong on the wire. Type and length errors in JSON bodies are still generated and must be refused.
    if not case.media_type or "xml" not in case.media_type:
        return True
    from schemathesis.core.parameters import ParameterLocation

    meta = case.meta
    if meta is None or not meta.is_negative_at(ParameterLocation.BODY):
        return True
    return not _not_xml_text(case.body)


# The state the run works on (scripts/schemathesis.sh sets it up and names it in the environment): the fixture
# document with its annotations, fields and a signature field; a user and an optimize profile to fuzz; a key store
# that signs. Writes change that state, and a deleted document would leave every later request on it a 404, so after
# any write that succeeded everything is put back before the next call. The fuzzer's own account and the observer's
# (which reads /metrics for the coverage report) are never the target of a user change: a fuzzed password change
# would turn the rest of the run into a test of authentication alone.
_BASE = os.environ.get("PDFSERVICE_FUZZ_URL", "")
_ADMIN = tuple(os.environ.get("PDFSERVICE_FUZZ_OBSERVER", ":").split(":", 1))
_FIXTURE = os.environ.get("PDFSERVICE_FUZZ_FIXTURE", "")
_KEYSTORE = os.environ.get("PDFSERVICE_FUZZ_KEYSTORE", "")
_KEYSTORE_PASSWORD = os.environ.get("PDFSERVICE_FUZZ_KEYSTORE_PASSWORD", "")
_AUTH = tuple(os.environ.get("PDFSERVICE_FUZZ_AUTH", ":").split(":", 1))
_PROTECTED_USERS = set(filter(None, os.environ.get("PDFSERVICE_FUZZ_PROTECTED_USERS", "").split(",")))
_TARGET_USER = "fuzz-target"
_DOCUMENT = "reports/2026/q1.pdf"
_dirty = set()
_random = random.Random(20261128)
_uploads = 0

# Bodies a fuzzer cannot find by chance: XFDF that names the fixture's field, an annotation, a page action, the login of
# the run's user (before_call says which cases carry one). A body of another media type is replaced whole.
_XFDF_NS = 'xmlns="http://ns.adobe.com/xfdf/"'
# The operations that have had their known-good body once (before_call).
_known_given = set()
_KNOWN_GOOD = {
    "addAnnotation": ("xfdf", f'<?xml version="1.0" encoding="UTF-8"?><xfdf {_XFDF_NS}><annots><text page="0" rect="20,20,40,40" name="fuzz-note"><contents>Added by the fuzzer</contents></text></annots></xfdf>'),
    "importAnnotations": ("xfdf", f'<?xml version="1.0" encoding="UTF-8"?><xfdf {_XFDF_NS}><annots><square page="1" rect="20,20,80,80" name="fuzz-square" color="#FF0000"/></annots></xfdf>'),
    "importFields": ("xfdf", f'<?xml version="1.0" encoding="UTF-8"?><xfdf {_XFDF_NS}><fields><field name="customer_name"><value>Fuzz Tester</value></field></fields></xfdf>'),
    "importFieldsLegacy": ("xfdf", f'<?xml version="1.0" encoding="UTF-8"?><xfdf {_XFDF_NS}><fields><field name="customer_name"><value>Fuzz Tester</value></field></fields></xfdf>'),
    "putXmp": ("xmp", '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Fuzzed</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>'),
    "runPageAction": ("json", {"RotatePagesAction": {"pageRange": "1", "rotation": 90}}),
    "compareDocument": ("json", {"with": {"filePath": "reports/2026/q1.pdf"}}),
    "login": ("json", {"username": _TARGET_USER, "password": "fuzz-target-password"}),
}


# What exists in the run's state, by path parameter (and by operation where one kind is meant); the same names as the
# dictionaries of scripts/schemathesis.toml. Schemathesis percent-encodes them (a "%2F" here would break the pattern).
_EXISTING = {
    "filePath": ["reports/2026/q1"],
    "folderPath": ["reports/2026", "reports"],
    "name": ["note-1", "ink-1", "highlight-1", "redact-1", "attachment-1"],
    "fieldName": ["customer_name", "approval"],
    "username": [_TARGET_USER],
    "profileName": ["fuzz-profile"],
    # The binding scripts/schemathesis.sh makes (docs/watched-folders.md).
    "watchName": ["fuzz-watch"],
    ("getAnnotationAttachment", "name"): ["attachment-1"],
    ("getAnnotationAttachmentContent", "name"): ["attachment-1"],
    ("getDocumentAttachment", "name"): ["fuzz.txt"],
    ("deleteDocumentAttachment", "name"): ["fuzz.txt"],
    ("getSignatureField", "fieldName"): ["approval"],
    ("deleteSignatureField", "fieldName"): ["approval"],
    ("signField", "fieldName"): ["approval"],
    # The figure resource's success path needs a tagged document (scripts/schemathesis.sh uploads one) and a figure of it.
    ("listFigures", "filePath"): ["reports/2026/tagged"],
    ("patchFigures", "filePath"): ["reports/2026/tagged"],
    ("patchFigure", "filePath"): ["reports/2026/tagged"],
    ("patchFigure", "index"): ["0", "1", "2"],
}




def _read_id(name):
    path = os.path.join(os.environ.get("PDFSERVICE_FUZZ_WORK", ""), name)
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


# The token and the finished job made for the run (a revoked token is replaced, see _restore).
_EXISTING.update({
    (op, "id"): _read_id("tokens.txt") for op in ("getToken", "revokeToken")
})
_EXISTING.update({
    (op, "id"): _read_id("jobs.txt") for op in ("getJob", "followJobEvents")
})
# The one-shot conversion's job, whose result file is kept (scripts/schemathesis.sh).
_EXISTING[("downloadJobResult", "id")] = _read_id("results.txt")


def _version_ids():
    """The ids of the fuzzed document's versions, newest first; at least two (a second written when there is one)."""
    api = _BASE + "/pdfservice/v1"
    for _ in range(2):
        listed = requests.get(f"{api}/documents/{_DOCUMENT}/versions", auth=_ADMIN, timeout=60)
        ids = [v["id"] for v in listed.json().get("versions", [])] if listed.ok else []
        if len(ids) >= 2:
            return ids
        with open(_FIXTURE, "rb") as f:
            requests.put(f"{api}/documents/{_DOCUMENT}", data=f.read(), headers={"Content-Type": "application/pdf"}, auth=_ADMIN, timeout=60)
    return ids


_trashed = 0


def _trash_entry():
    """A fresh trash entry of the fuzzing user (entries are per user, docs/versions.md "Trash"): a scratch document of
    its own uploaded and deleted; its original path stays free, so a restore there succeeds."""
    global _trashed
    _trashed += 1
    api = _BASE + "/pdfservice/v1"
    auth = tuple(os.environ.get("PDFSERVICE_FUZZ_AUTH", ":").split(":", 1))
    doc = f"fuzz-trash/doc-{_trashed}.pdf"
    with open(_FIXTURE, "rb") as f:
        requests.put(f"{api}/documents/{doc}", data=f.read(), headers={"Content-Type": "application/pdf"}, auth=auth, timeout=60)
    requests.delete(f"{api}/documents/{doc}", auth=auth, timeout=60)
    listed = requests.get(f"{api}/trash?limit=1", auth=auth, timeout=60)
    entries = listed.json().get("entries", []) if listed.ok else []
    return entries[0]["id"] if entries else None


def _set_query(case, kwargs, name, value):
    """Sets a query parameter the case already has: the query is in the transport's params or URL when the hooks run."""
    case.query[name] = value
    if isinstance(kwargs.get("params"), dict) and name in kwargs["params"]:
        kwargs["params"][name] = value
    if isinstance(kwargs.get("url"), str):
        kwargs["url"] = re.sub(rf"([?&]{name}=)[^&]*", lambda m: m.group(1) + value, kwargs["url"])


def _operation_id(case):
    return case.operation.definition.raw.get("operationId", "")


def _restore():
    api = _BASE + "/pdfservice/v1"
    session = requests.Session()
    session.auth = _ADMIN
    if "document" in _dirty:
        session.put(f"{api}/documents/reports", timeout=60)
        session.put(f"{api}/documents/reports/2026", timeout=60)
        with open(_FIXTURE, "rb") as f:
            reply = session.put(f"{api}/documents/{_DOCUMENT}", data=f.read(), headers={"Content-Type": "application/pdf"}, timeout=60)
        reply.raise_for_status()
    if "user" in _dirty and session.get(f"{api}/users/{_TARGET_USER}", timeout=60).status_code == 404:
        session.post(f"{api}/users", json={"username": _TARGET_USER, "password": "fuzz-target-password", "rights": ["GET"]}, timeout=60)
    if "token" in _dirty:
        # Tokens are the caller's own: the fuzzer makes the replacement for the one a fuzzed DELETE revoked.
        own = requests.get(f"{api}/tokens", auth=tuple(os.environ.get("PDFSERVICE_FUZZ_AUTH", ":").split(":", 1)), timeout=60)
        ids = {token["id"] for token in own.json().get("tokens", [])} if own.ok else set()
        if not ids & set(_EXISTING[("getToken", "id")]):
            made = requests.post(f"{api}/tokens", json={"name": "fuzz"}, auth=tuple(os.environ.get("PDFSERVICE_FUZZ_AUTH", ":").split(":", 1)), timeout=60)
            if made.ok:
                for op in ("getToken", "revokeToken"):
                    _EXISTING[(op, "id")] = [made.json()["id"]]
    if "watch" in _dirty and requests.get(f"{api}/watched-folders/fuzz-watch", auth=_AUTH, timeout=60).status_code == 404:
        requests.put(f"{api}/watched-folders/fuzz-watch", json={"folder": "reports/watched", "pipeline": {"name": "fuzz-pipeline"}},
                     auth=_AUTH, timeout=60)
    if "profile" in _dirty and session.get(f"{api}/optimize-profiles/fuzz-profile", timeout=60).status_code == 404:
        session.put(f"{api}/optimize-profiles/fuzz-profile", json={}, timeout=60)
    _dirty.clear()


@schemathesis.hook
def before_call(ctx, case, kwargs):
    if not _BASE:
        return
    if _dirty:
        _restore()
    operation = _operation_id(case)
    params = case.path_parameters or {}
    if params.get("username") in _PROTECTED_USERS and case.method.upper() != "GET":
        params["username"] = _TARGET_USER
    # Only the positive cases of the examples and coverage phases are made to succeed. Those phases run to their end
    # every time (scripts/schemathesis.sh) and enumerate their cases, and the hooks draw from a seeded generator, so
    # which operations reach their success path does not vary between runs. Left alone: negative cases, coverage
    # scenarios about headers (the security scheme's Authorization among them, which --auth replaces, so Schemathesis
    # may judge the request invalid whatever the case is marked) and the fuzzing phase, which draws existing names
    # from the dictionaries of scripts/schemathesis.toml itself.
    phase = str(getattr(getattr(case.meta, "phase", None), "name", None))
    if phase not in ("examples", "coverage") or _negative(case) or _header_scenario(case):
        return
    # Signing succeeds only with a key store that opens: the run's key store and its password.
    if operation == "signField" and isinstance(case.body, dict):
        with open(_KEYSTORE, "rb") as f:
            case.body["file"] = f.read()
        signature = case.body.get("signature")
        if isinstance(signature, dict):
            signature["keystorePassword"] = _KEYSTORE_PASSWORD
            signature.pop("keyPassword", None)
            signature.pop("keyAlias", None)
    # A one-shot conversion succeeds only with a document to convert: half its cases carry the fixture, with no steps
    # (steps follow the rules of the stored path's actions, which runDocumentAction's cases exercise).
    if operation == "convertOneShot" and isinstance(case.body, dict) and _random.random() < 0.5:
        with open(_FIXTURE, "rb") as f:
            case.body["file"] = f.read()
        case.body.pop("steps", None)
        case.body.pop("asset", None)
    # An upload succeeds (201) only with a file the service takes, under a name that is free, and without the
    # Office-only options, which the service refuses for a PDF (400). Without this an upload succeeded only when
    # random bytes happened to be taken for a conversion, and the coverage gate passed or failed by luck. So the
    # cases of the two uploads whose query holds at most namingMode send the fixture PDF under a name of their own.
    # The file goes in the transport's own `files` and the case is left as generated: a body edited to hold bytes
    # is judged schema-violating by Schemathesis's revalidation (it would count the 201 as a negative case accepted),
    # and the query is already in the URL when this hook runs.
    if operation in ("uploadToFolder", "uploadToRootFolder") and set(case.query or {}) <= {"namingMode"}:
        global _uploads
        _uploads += 1
        with open(_FIXTURE, "rb") as f:
            kwargs["files"] = {"file": (f"fuzz-upload-{_uploads}.pdf", f.read(), "application/pdf")}
    # A binding succeeds only on a folder and a pipeline that exist (random names never do): the ones
    # scripts/schemathesis.sh makes, in place.
    if operation == "putWatchedFolder" and isinstance(case.body, dict):
        case.body["folder"] = "reports/watched"
        case.body["pipeline"] = {"name": "fuzz-pipeline"}
        case.body.pop("target", None)
    # A binding is the caller's own unless an admin names an owner: the coverage phase always adds ?owner=, with a
    # name that has no binding (404), so it names the fuzzer, who made "fuzz-watch". A deleted binding is made again.
    if operation in ("getWatchedFolder", "deleteWatchedFolder") and "owner" in (case.query or {}):
        _set_query(case, kwargs, "owner", _AUTH[0])
    if operation == "deleteWatchedFolder":
        _dirty.add("watch")
    # A job can be cancelled only while it is queued or running: one is started for the case.
    if operation == "cancelJob":
        reply = requests.post(f"{_BASE}/pdfservice/v1/documents/{_DOCUMENT}", json={"PDFAConvertAction": {}},
                              headers={"Prefer": "respond-async"}, auth=_ADMIN, timeout=60)
        if reply.status_code == 202:
            params["id"] = reply.json()["id"]
            _dirty.add("document")
    # Path parameters name what exists (these phases draw them from boundaries, not from the dictionaries).
    for name in params:
        values = _EXISTING.get((operation, name)) or _EXISTING.get(name)
        if values:
            params[name] = _random.choice(values)
    # A version exists only by the id the service gave it (docs/versions.md): the version path operations get the
    # document's oldest version (never the current one, which a DELETE refuses), and a read's optional ?versionId= the
    # current one (a random id is rightly 404). Deleting or restoring one changes the document: it is put back after.
    if "versionId" in params or "versionId" in (case.query or {}):
        ids = _version_ids()
        if ids and "versionId" in params:
            params["versionId"] = ids[-1]
            if operation in ("deleteVersion", "restoreVersion"):
                _dirty.add("document")
        if ids and "versionId" in (case.query or {}):
            _set_query(case, kwargs, "versionId", ids[0])
    # A trash entry exists only by the id the service gave it: each trash case gets a fresh entry of the fuzzing user,
    # and half the restores go to the entry's own path (a random savePath is most often invalid or taken).
    if operation in ("getTrashEntry", "restoreTrashEntry", "purgeTrashEntry") and "id" in params:
        entry = _trash_entry()
        if entry:
            params["id"] = entry
        if operation == "restoreTrashEntry" and isinstance(case.body, dict) and _random.random() < 0.5:
            case.body.pop("savePath", None)
    # Half the cases of the operations whose bodies no generator finds carry a known-good one, and always the first:
    # the coverage phase makes few positive cases of a string body, and one seeded generator serves every operation, so
    # an operation added elsewhere moved the coin flips and left importFieldsLegacy's two or three cases without one
    # (never succeeded). A generated string is never an XMP packet: each case of putXmp carries the packet.
    known = _KNOWN_GOOD.get(operation)
    first = known is not None and operation not in _known_given
    if known and (first or operation == "putXmp" or _random.random() < 0.5):
        _known_given.add(operation)
        kind, body = known
        if kind == "json":
            object.__setattr__(case, "media_type", "application/json")
            object.__setattr__(case, "body", dict(body))
        elif kind == "xfdf":
            object.__setattr__(case, "media_type", "application/vnd.adobe.xfdf")
            object.__setattr__(case, "body", body)
        elif kind == "xmp":
            # Schemathesis writes a string for an XML media type as <data>...</data>: the packet goes to the transport as
            # it is, the case left as generated (as for uploads below).
            object.__setattr__(case, "media_type", "application/rdf+xml")
            kwargs["data"] = body.encode("utf-8")


def _header_scenario(case):
    # A coverage scenario about headers (the security scheme's Authorization among them) is judged by what it made of
    # the headers, which --auth then replaces: Schemathesis may count it invalid whatever it is marked.
    data = getattr(getattr(case.meta, "phase", None), "data", None)
    return str(getattr(data, "parameter_location", None) or "").endswith("header")


def _negative(case):
    from schemathesis.core.parameters import ParameterLocation

    # Negative as a whole (the fuzzing phase) or in one part (the coverage phase marks the part it made invalid).
    meta = case.meta
    if meta is None:
        return False
    return meta.generation.mode.is_negative or any(meta.is_negative_at(location) for location in ParameterLocation)


_WORK = os.environ.get("PDFSERVICE_FUZZ_WORK", "")


@schemathesis.hook
def after_call(ctx, case, response):
    if not _BASE:
        return
    # Every refusal of a schema-valid request, by operation and code, for the script's report: what the run accepted.
    if response.status_code == 400 and not _negative(case) and _WORK:
        try:
            problem = response.json()
        except ValueError:
            problem = {}
        detail = " ".join(str(problem.get("detail", "")).split())[:300]
        with open(os.path.join(_WORK, "positive-400.tsv"), "a", encoding="utf-8", errors="backslashreplace") as f:
            phase = str(getattr(getattr(case.meta, "phase", None), "name", ""))
            f.write(f"{_operation_id(case)}\t{problem.get('code', '')}\t{detail}\t{phase}\n")
    if case.method.upper() == "GET" or response.status_code >= 400:
        return
    path = case.formatted_path
    if "/documents" in path:
        _dirty.add("document")
    if "/users" in path:
        _dirty.add("user")
    if "/optimize-profiles" in path:
        _dirty.add("profile")
    if "/tokens" in path:
        _dirty.add("token")
