from enum import StrEnum

class GetPreflightResultProfile(StrEnum):
    PDFA1A = "pdfa1a"
    PDFA1B = "pdfa1b"
    PDFA2A = "pdfa2a"
    PDFA2B = "pdfa2b"
    PDFA2U = "pdfa2u"
    PDFA3A = "pdfa3a"
    PDFA3B = "pdfa3b"
    PDFA3U = "pdfa3u"
    PDFA4 = "pdfa4"
    PDFA4E = "pdfa4e"
    PDFA4F = "pdfa4f"
    PDFUA1 = "pdfua1"
    PDFUA2 = "pdfua2"
    PDFX1A2001 = "pdfx1a2001"
    PDFX1A2003 = "pdfx1a2003"
    PDFX32002 = "pdfx32002"
    PDFX32003 = "pdfx32003"
    PDFX4 = "pdfx4"
    WTPDF1A = "wtpdf1a"

    def __str__(self) -> str:
        return str(self.value)
