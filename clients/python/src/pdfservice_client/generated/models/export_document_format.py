from enum import StrEnum

class ExportDocumentFormat(StrEnum):
    CSV = "csv"
    DOCX = "docx"
    HTML = "html"
    JSON = "json"
    MARKDOWN = "markdown"
    XLSX = "xlsx"

    def __str__(self) -> str:
        return str(self.value)
