from enum import StrEnum

class OutlineDestinationFit(StrEnum):
    FIT = "Fit"
    FITB = "FitB"
    FITBH = "FitBH"
    FITBV = "FitBV"
    FITH = "FitH"
    FITR = "FitR"
    FITV = "FitV"
    XYZ = "XYZ"

    def __str__(self) -> str:
        return str(self.value)
