from enum import StrEnum

class ConvertOneShotPdfa(StrEnum):
    PDFA1B = "pdfa1b"
    PDFA2B = "pdfa2b"
    PDFA3B = "pdfa3b"

    def __str__(self) -> str:
        return str(self.value)
