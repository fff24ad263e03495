from enum import StrEnum

class ActionStepPDFAConvertActionProfile(StrEnum):
    PDFA1B = "pdfa1b"
    PDFA2B = "pdfa2b"
    PDFA2U = "pdfa2u"
    PDFA3B = "pdfa3b"
    PDFA3U = "pdfa3u"

    def __str__(self) -> str:
        return str(self.value)
