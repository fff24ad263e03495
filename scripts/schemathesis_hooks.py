"""Schemathesis hooks for pdfservice (scripts/schemathesis.sh): how to send the body types it has no serializer for."""
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
