from enum import StrEnum

class UploadToFolderPaperSize(StrEnum):
    A0 = "A0"
    A1 = "A1"
    A2 = "A2"
    A3 = "A3"
    A4 = "A4"
    A5 = "A5"
    A6 = "A6"
    LEDGER = "Ledger"
    LEGAL = "Legal"
    LETTER = "Letter"
    TABLOID = "Tabloid"

    def __str__(self) -> str:
        return str(self.value)
