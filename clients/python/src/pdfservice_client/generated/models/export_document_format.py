from enum import StrEnum

class ExportDocumentFormat(StrEnum):
    DOCX = "docx"
    HTML = "html"
    JSON = "json"
    MARKDOWN = "markdown"

    def __str__(self) -> str:
        return str(self.value)
