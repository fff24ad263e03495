"""pdfservice client: ``PdfService`` (sign-in, uploads, actions, jobs over SSE, downloads), ``PdfServiceError`` (the
problem documents), and the generated API in ``pdfservice_client.generated`` (``.api``: one module per operation,
``.models``: the schemas)."""

from .client import API_PREFIX, ConvertResult, JobEvent, PdfService, WriteResult, media_type_of
from .errors import PdfServiceError

__all__ = ["API_PREFIX", "ConvertResult", "JobEvent", "PdfService", "PdfServiceError", "WriteResult", "media_type_of"]
