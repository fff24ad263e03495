"""Schemathesis hooks for pdfservice (scripts/schemathesis.sh): how to send the body types it has no serializer for."""
import re

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
    return not {"x-service-documentpassword", "x-service-documentpassword-base64"} <= headers


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
