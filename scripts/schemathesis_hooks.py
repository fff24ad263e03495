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
